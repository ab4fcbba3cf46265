//! Synthetic load: per-workload demand curves over virtual time, spread over the ready pods as
//! per-pod CPU/memory usage — kubeplay's stand-in for metrics-server (`metrics.k8s.io`).
//!
//! A scenario's `load:` list names pods (a `workload` such as `ReplicaSet/frontend`, or a
//! label `selector`) and gives a total demand curve per resource. At any instant the total is
//! shared among the matching pods that serve traffic (Running, Ready, not terminating), each
//! with a fixed deterministic weight `1 ± skew` derived from the seed and the pod's name.
//! Running pods that are not ready report `idleCpu`; pods that are not running have no metrics.
//! Pods no `load:` entry covers have no metrics at all (as in a cluster without metrics-server).

use crate::api::validation::quantity::parse_quantity;
use crate::api::{Duration, Pod, Quantity, Selector, Time};
use crate::store::Store;
use crate::world::duration_serde;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The window metrics-server reports for a sample (its default `--metric-resolution`).
pub const METRIC_WINDOW: Duration = Duration::from_secs(15);

/// One `load:` entry.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WorkloadLoad {
    /// `Kind/name` of a Deployment, ReplicaSet, ReplicationController or StatefulSet whose
    /// selector picks the pods (`ReplicaSet/frontend`, `deploy/web`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workload: Option<String>,
    /// A label selector in kubectl syntax (`app=web`), instead of `workload`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selector: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    /// Total CPU demand (cores: `1500m`, `2`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu: Option<LoadCurve>,
    /// Total memory demand on top of `memoryPerPod` (bytes: `512Mi`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory: Option<LoadCurve>,
    /// Memory every running pod uses regardless of load.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_per_pod: Option<Quantity>,
    /// CPU a running pod uses while not ready (warming up).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idle_cpu: Option<Quantity>,
    /// Per-pod imbalance in `[0, 1)`: weights are `1 ± skew`, fixed per pod.
    #[serde(default)]
    pub skew: f64,
}

/// A demand curve: `base`, then `steps` and `ramps` (applied in time order), plus a daily
/// `sine` and `spikes`. Values are quantities; the result never goes below zero.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LoadCurve {
    #[serde(default)]
    pub base: Quantity,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub steps: Vec<LoadStep>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ramps: Vec<LoadRamp>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sine: Option<LoadSine>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spikes: Vec<LoadSpike>,
}

/// From `at` on, the level is `value`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LoadStep {
    #[serde(with = "duration_serde")]
    pub at: Duration,
    pub value: Quantity,
}

/// From `from` to `to` the level moves linearly to `value`, and stays there.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LoadRamp {
    #[serde(with = "duration_serde")]
    pub from: Duration,
    #[serde(with = "duration_serde")]
    pub to: Duration,
    pub value: Quantity,
}

/// `amplitude · sin(2π (t + phase) / period)` added to the level (`period` defaults to 24 h).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LoadSine {
    #[serde(default = "day", with = "duration_serde")]
    pub period: Duration,
    pub amplitude: Quantity,
    #[serde(default, with = "duration_serde")]
    pub phase: Duration,
}

fn day() -> Duration {
    Duration::from_secs(86_400)
}

/// `value` added during `[at, at + duration)`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LoadSpike {
    #[serde(with = "duration_serde")]
    pub at: Duration,
    #[serde(with = "duration_serde")]
    pub duration: Duration,
    pub value: Quantity,
}

/// The milli-value of a quantity (`1500m` → 1500, `2` → 2000, `1Mi` → 1048576000); 0 when
/// it does not parse.
pub fn milli(q: &Quantity) -> f64 {
    parse_quantity(&q.0)
        .map(|p| p.milli_value() as f64)
        .unwrap_or(0.0)
}

impl LoadCurve {
    /// The curve's value (milli-units) at `t` after the scenario start.
    pub fn value_at(&self, t: Duration) -> f64 {
        let mut level = milli(&self.base);
        // (start, end, value): steps are ramps of zero length. Applied in start order.
        let mut segs: Vec<(i64, i64, f64)> = self
            .steps
            .iter()
            .map(|s| (s.at.0, s.at.0, milli(&s.value)))
            .chain(
                self.ramps
                    .iter()
                    .map(|r| (r.from.0, r.to.0.max(r.from.0), milli(&r.value))),
            )
            .collect();
        crate::sort::sort_by(&mut segs, |a, b| a.0.cmp(&b.0).then(a.1.cmp(&b.1)));
        for (from, to, v) in segs {
            if t.0 < from {
                break;
            }
            if t.0 >= to {
                level = v;
            } else {
                let f = (t.0 - from) as f64 / (to - from) as f64;
                level += (v - level) * f;
            }
        }
        if let Some(s) = &self.sine {
            if s.period.0 > 0 {
                let x = (t.0 + s.phase.0) as f64 / s.period.0 as f64;
                level += milli(&s.amplitude) * (std::f64::consts::TAU * x).sin();
            }
        }
        for sp in &self.spikes {
            if t.0 >= sp.at.0 && t.0 < sp.at.0 + sp.duration.0 {
                level += milli(&sp.value);
            }
        }
        level.max(0.0)
    }
}

/// The scenario's load, with what evaluating it needs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LoadModel {
    pub entries: Vec<WorkloadLoad>,
    /// t = 0 of the curves.
    pub start: Time,
    pub seed: u64,
}

/// One pod's sample, as `metrics.k8s.io` reports it (milli-units).
#[derive(Clone, Debug, PartialEq)]
pub struct PodMetric {
    pub value: i64,
    pub timestamp: Time,
    pub window: Duration,
}

/// A deterministic weight in `[1 - skew, 1 + skew]` for a pod name.
pub fn pod_weight(seed: u64, pod_name: &str, skew: f64) -> f64 {
    // FNV-1a over the name, mixed with the seed through SplitMix64.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in pod_name.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    let u = crate::rng::Rng::new(h ^ seed).next_f64();
    let skew = skew.clamp(0.0, 0.99);
    1.0 + skew * (2.0 * u - 1.0)
}

/// Whether a pod serves traffic: Running, Ready, not terminating.
pub fn serves_traffic(p: &Pod) -> bool {
    p.metadata.deletion_timestamp.is_none()
        && p.status.phase == "Running"
        && crate::controllers::controller_utils::is_pod_ready(p)
}

/// Splits `total` over weights proportionally (pure; the sum of the shares is `total`).
pub fn spread(total: f64, weights: &[f64]) -> Vec<f64> {
    let sum: f64 = weights.iter().sum();
    if sum <= 0.0 {
        return vec![0.0; weights.len()];
    }
    weights.iter().map(|w| total * w / sum).collect()
}

impl WorkloadLoad {
    /// The entry's pod selector, resolved against the store (`None` when the workload is
    /// missing or the selector does not parse).
    pub fn selector(&self, store: &Store) -> Option<Selector> {
        if let Some(s) = &self.selector {
            return Selector::parse(s).ok();
        }
        let w = self.workload.as_ref()?;
        let (kind, name) = w.split_once('/')?;
        let kind = crate::api::resolve_kind(kind)?;
        let ns = self.namespace.as_deref().unwrap_or("default");
        let scale =
            crate::controllers::podautoscaler::scale::get_scale(store, kind, ns, name).ok()?;
        Selector::parse(&scale.selector).ok()
    }

    fn ns(&self) -> &str {
        self.namespace.as_deref().unwrap_or("default")
    }
}

impl LoadModel {
    /// Per-pod usage of `resource` (`cpu` or `memory`) for every pod some entry covers, at
    /// `now`: name → sample. Pods of other namespaces are not included.
    pub fn pod_metrics(
        &self,
        store: &Store,
        namespace: &str,
        resource: &str,
        now: Time,
    ) -> BTreeMap<String, PodMetric> {
        let mut out = BTreeMap::new();
        let t = now - self.start;
        for e in &self.entries {
            if e.ns() != namespace {
                continue;
            }
            let Some(sel) = e.selector(store) else {
                continue;
            };
            let pods: Vec<&Pod> = store
                .list::<Pod>(Some(namespace))
                .filter(|p| sel.matches(&p.metadata.labels))
                .filter(|p| !out.contains_key(&p.metadata.name))
                .collect();
            let serving: Vec<&&Pod> = pods.iter().filter(|p| serves_traffic(p)).collect();
            let weights: Vec<f64> = serving
                .iter()
                .map(|p| pod_weight(self.seed, &p.metadata.name, e.skew))
                .collect();
            let curve = match resource {
                "cpu" => e.cpu.as_ref(),
                "memory" => e.memory.as_ref(),
                _ => continue,
            };
            let total = curve.map_or(0.0, |c| c.value_at(t));
            let shares = spread(total, &weights);
            let per_pod_mem = e.memory_per_pod.as_ref().map_or(0.0, milli);
            let idle = e.idle_cpu.as_ref().map_or(0.0, milli);
            let mut served: BTreeMap<&str, f64> = BTreeMap::new();
            for (p, s) in serving.iter().zip(shares) {
                served.insert(p.metadata.name.as_str(), s);
            }
            for p in pods {
                if p.status.phase != "Running" || p.metadata.deletion_timestamp.is_some() {
                    continue;
                }
                let share = served.get(p.metadata.name.as_str()).copied();
                let v = match resource {
                    "cpu" => share.unwrap_or(idle),
                    _ => per_pod_mem + share.unwrap_or(0.0),
                };
                out.insert(
                    p.metadata.name.clone(),
                    PodMetric {
                        value: v.round() as i64,
                        timestamp: now,
                        window: METRIC_WINDOW,
                    },
                );
            }
        }
        out
    }

    /// The total demand curve of an entry for `resource`, sampled every `step` over
    /// `[0, until]` (offsets from the start): `(seconds, milli-units)`. For the page.
    pub fn series(
        &self,
        index: usize,
        resource: &str,
        until: Duration,
        step: Duration,
    ) -> Vec<(f64, f64)> {
        let Some(e) = self.entries.get(index) else {
            return vec![];
        };
        let curve = match resource {
            "cpu" => e.cpu.as_ref(),
            "memory" => e.memory.as_ref(),
            _ => None,
        };
        let Some(c) = curve else {
            return vec![];
        };
        let step = step.0.max(1000);
        let mut out = vec![];
        let mut t = 0;
        while t <= until.0 && out.len() < 100_000 {
            out.push((t as f64 / 1000.0, c.value_at(Duration(t))));
            t += step;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(s: &str) -> Quantity {
        Quantity(s.into())
    }

    #[test]
    fn steps_ramps_sine_and_spikes_compose() {
        let c = LoadCurve {
            base: q("300m"),
            steps: vec![LoadStep {
                at: Duration::from_secs(60),
                value: q("1500m"),
            }],
            ramps: vec![LoadRamp {
                from: Duration::from_secs(600),
                to: Duration::from_secs(720),
                value: q("300m"),
            }],
            sine: None,
            spikes: vec![LoadSpike {
                at: Duration::from_secs(900),
                duration: Duration::from_secs(30),
                value: q("2"),
            }],
        };
        assert_eq!(c.value_at(Duration::ZERO), 300.0);
        assert_eq!(c.value_at(Duration::from_secs(59)), 300.0);
        assert_eq!(c.value_at(Duration::from_secs(60)), 1500.0);
        assert_eq!(c.value_at(Duration::from_secs(660)), 900.0);
        assert_eq!(c.value_at(Duration::from_secs(720)), 300.0);
        assert_eq!(c.value_at(Duration::from_secs(910)), 2300.0);
        assert_eq!(c.value_at(Duration::from_secs(930)), 300.0);
        let s = LoadCurve {
            base: q("1"),
            sine: Some(LoadSine {
                period: Duration::from_secs(400),
                amplitude: q("500m"),
                phase: Duration::ZERO,
            }),
            ..Default::default()
        };
        assert!((s.value_at(Duration::from_secs(100)) - 1500.0).abs() < 1e-6);
        assert!((s.value_at(Duration::from_secs(300)) - 500.0).abs() < 1e-6);
    }

    #[test]
    fn weights_are_deterministic_and_bounded() {
        let a = pod_weight(7, "frontend-abcde", 0.3);
        assert_eq!(a, pod_weight(7, "frontend-abcde", 0.3));
        assert!((0.7..=1.3).contains(&a));
        assert_eq!(pod_weight(7, "x", 0.0), 1.0);
        let s = spread(900.0, &[1.0, 2.0, 0.0]);
        assert_eq!(s, vec![300.0, 600.0, 0.0]);
    }
}
