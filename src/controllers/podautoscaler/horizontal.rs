//! The horizontal pod autoscaler (`pkg/controller/podautoscaler/horizontal.go`): every 15 s per
//! HPA, read the target's scale, compute a replica count from the metrics, stabilize and
//! rate-limit it, rescale, and write status and conditions.

use super::replica_calculator::{ReplicaCalculator, Tolerances};
use super::scale::{get_scale, rest_mapping, update_scale, Scale};
use crate::api::autoscaling::{
    HorizontalPodAutoscaler, HorizontalPodAutoscalerCondition, HpaScalingRules, MetricSpec,
    MetricStatus, MetricValueStatus, ResourceMetricStatus, ABLE_TO_SCALE, SCALING_ACTIVE,
    SCALING_LIMITED,
};
use crate::api::{ApiError, Duration, Object, Pod, Quantity, Resource, Selector, Time};
use crate::controllers::{Controller, Ctx};
use crate::features::FeatureGates;
use crate::queue::WorkQueue;
use crate::sort::CollectBTreeMap as _;
use crate::store::{Change, Store};
use std::collections::BTreeMap;

/// The component name events are reported from.
pub const COMPONENT: &str = "horizontal-pod-autoscaler";
/// `--horizontal-pod-autoscaler-sync-period`.
pub const DEFAULT_SYNC_PERIOD: Duration = Duration::from_secs(15);
/// `--horizontal-pod-autoscaler-downscale-stabilization`.
pub const DEFAULT_DOWNSCALE_STABILISATION_WINDOW: Duration = Duration::from_secs(300);
/// `scaleUpLimitFactor` and `scaleUpLimitMinimum` (no `behavior`).
pub const SCALE_UP_LIMIT_FACTOR: f64 = 2.0;
pub const SCALE_UP_LIMIT_MINIMUM: f64 = 4.0;

/// `timestampedRecommendation`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimestampedRecommendation {
    pub recommendation: i32,
    pub timestamp: Time,
}

/// `timestampedScaleEvent`: `replica_change` is always positive (up and down events are kept
/// in separate lists).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimestampedScaleEvent {
    pub replica_change: i32,
    pub timestamp: Time,
    pub outdated: bool,
}

/// `NormalizationArg`.
#[derive(Clone, Debug, PartialEq)]
pub struct NormalizationArg {
    pub scale_up_behavior: HpaScalingRules,
    pub scale_down_behavior: HpaScalingRules,
    pub min_replicas: i32,
    pub max_replicas: i32,
    pub current_replicas: i32,
    pub desired_replicas: i32,
}

fn secs(s: i32) -> Duration {
    Duration::from_secs(i64::from(s))
}

/// `stabilizeRecommendation` (no `behavior`): records the recommendation (replacing one older
/// than the window) and returns the highest recommendation within the window.
pub fn stabilize_recommendation(
    recs: &mut Vec<TimestampedRecommendation>,
    prenormalized: i32,
    window: Duration,
    now: Time,
) -> i32 {
    let mut max_rec = prenormalized;
    let mut old: Option<usize> = None;
    let cutoff = now - window;
    for (i, r) in recs.iter().enumerate() {
        if r.timestamp < cutoff {
            old = Some(i);
        } else if r.recommendation > max_rec {
            max_rec = r.recommendation;
        }
    }
    let new = TimestampedRecommendation {
        recommendation: prenormalized,
        timestamp: now,
    };
    match old {
        Some(i) => recs[i] = new,
        None => recs.push(new),
    }
    max_rec
}

/// `calculateScaleUpLimit`: at most double, and at least 4.
pub fn calculate_scale_up_limit(current_replicas: i32) -> i32 {
    (SCALE_UP_LIMIT_FACTOR * f64::from(current_replicas)).max(SCALE_UP_LIMIT_MINIMUM) as i32
}

/// `convertDesiredReplicasWithRules`: clamps to `[min, min(max, scale-up limit)]`; returns
/// (replicas, condition reason, message).
pub fn convert_desired_replicas_with_rules(
    current_replicas: i32,
    desired_replicas: i32,
    hpa_min_replicas: i32,
    hpa_max_replicas: i32,
) -> (i32, &'static str, &'static str) {
    let scale_up_limit = calculate_scale_up_limit(current_replicas);
    let (maximum, cond, reason) = if hpa_max_replicas > scale_up_limit {
        (
            scale_up_limit,
            "ScaleUpLimit",
            "the desired replica count is increasing faster than the maximum scale rate",
        )
    } else {
        (
            hpa_max_replicas,
            "TooManyReplicas",
            "the desired replica count is more than the maximum replica count",
        )
    };
    if desired_replicas < hpa_min_replicas {
        return (
            hpa_min_replicas,
            "TooFewReplicas",
            "the desired replica count is less than the minimum replica count",
        );
    }
    if desired_replicas > maximum {
        return (maximum, cond, reason);
    }
    (
        desired_replicas,
        "DesiredWithinRange",
        "the desired count is within the acceptable range",
    )
}

/// `getReplicasChangePerPeriod`: replicas changed by events newer than `period` ago.
pub fn get_replicas_change_per_period(
    period_seconds: i32,
    events: &[TimestampedScaleEvent],
    now: Time,
) -> i32 {
    let cutoff = now - secs(period_seconds);
    events
        .iter()
        .filter(|e| e.timestamp > cutoff)
        .map(|e| e.replica_change)
        .sum()
}

fn select_policy(r: &HpaScalingRules) -> &str {
    r.select_policy.as_deref().unwrap_or("Max")
}

/// `calculateScaleUpLimitWithScalingRules`: the most replicas the policies allow now, counting
/// from the replicas at the start of each policy's period.
pub fn calculate_scale_up_limit_with_scaling_rules(
    current_replicas: i32,
    scale_up_events: &[TimestampedScaleEvent],
    scale_down_events: &[TimestampedScaleEvent],
    rules: &HpaScalingRules,
    now: Time,
) -> i32 {
    let policy = select_policy(rules);
    if policy == "Disabled" {
        return current_replicas;
    }
    let min_select = policy == "Min";
    let mut result = if min_select { i32::MAX } else { i32::MIN };
    for p in rules.policies.iter().flatten() {
        let added = get_replicas_change_per_period(p.period_seconds, scale_up_events, now);
        let deleted = get_replicas_change_per_period(p.period_seconds, scale_down_events, now);
        let start = current_replicas - added + deleted;
        let proposed = match p.type_.as_str() {
            "Pods" => start + p.value,
            // Rounded up so that a small percentage still adds a pod.
            _ => (f64::from(start) * (1.0 + f64::from(p.value) / 100.0)).ceil() as i32,
        };
        result = if min_select {
            result.min(proposed)
        } else {
            result.max(proposed)
        };
    }
    result
}

/// `calculateScaleDownLimitWithBehaviors`: the fewest replicas the policies allow now.
pub fn calculate_scale_down_limit_with_behaviors(
    current_replicas: i32,
    scale_up_events: &[TimestampedScaleEvent],
    scale_down_events: &[TimestampedScaleEvent],
    rules: &HpaScalingRules,
    now: Time,
) -> i32 {
    let policy = select_policy(rules);
    if policy == "Disabled" {
        return current_replicas;
    }
    let min_select = policy == "Min";
    let mut result = if min_select { i32::MIN } else { i32::MAX };
    for p in rules.policies.iter().flatten() {
        let added = get_replicas_change_per_period(p.period_seconds, scale_up_events, now);
        let deleted = get_replicas_change_per_period(p.period_seconds, scale_down_events, now);
        let start = current_replicas - added + deleted;
        let proposed = match p.type_.as_str() {
            "Pods" => start - p.value,
            _ => (f64::from(start) * (1.0 - f64::from(p.value) / 100.0)) as i32,
        };
        result = if min_select {
            result.max(proposed)
        } else {
            result.min(proposed)
        };
    }
    result
}

/// `stabilizeRecommendationWithBehaviors`: keeps the recommendation between the lowest
/// recommendation of the scale-up window and the highest of the scale-down window (starting
/// from the current replicas), and records the new one. Returns (replicas, reason, message).
pub fn stabilize_recommendation_with_behaviors(
    recs: &mut Vec<TimestampedRecommendation>,
    args: &NormalizationArg,
    now: Time,
) -> (i32, &'static str, &'static str) {
    let up_window = secs(
        args.scale_up_behavior
            .stabilization_window_seconds
            .unwrap_or(0),
    );
    let down_window = secs(
        args.scale_down_behavior
            .stabilization_window_seconds
            .unwrap_or(0),
    );
    let up_cutoff = now - up_window;
    let down_cutoff = now - down_window;
    let mut up_rec = args.desired_replicas;
    let mut down_rec = args.desired_replicas;
    let mut old: Option<usize> = None;
    for (i, r) in recs.iter().enumerate() {
        if r.timestamp > up_cutoff {
            up_rec = up_rec.min(r.recommendation);
        }
        if r.timestamp > down_cutoff {
            down_rec = down_rec.max(r.recommendation);
        }
        if r.timestamp < up_cutoff && r.timestamp < down_cutoff {
            old = Some(i);
        }
    }
    let mut recommendation = args.current_replicas;
    if recommendation < up_rec {
        recommendation = up_rec;
    }
    if recommendation > down_rec {
        recommendation = down_rec;
    }
    let new = TimestampedRecommendation {
        recommendation: args.desired_replicas,
        timestamp: now,
    };
    match old {
        Some(i) => recs[i] = new,
        None => recs.push(new),
    }
    if args.desired_replicas >= args.current_replicas {
        (
            recommendation,
            "ScaleUpStabilized",
            "recent recommendations were lower than current one, applying the lowest recent recommendation",
        )
    } else {
        (
            recommendation,
            "ScaleDownStabilized",
            "recent recommendations were higher than current one, applying the highest recent recommendation",
        )
    }
}

/// `convertDesiredReplicasWithBehaviorRate`: applies the scaling policies' rate limits and
/// min/max. Returns (replicas, reason, message).
pub fn convert_desired_replicas_with_behavior_rate(
    args: &NormalizationArg,
    scale_up_events: &[TimestampedScaleEvent],
    scale_down_events: &[TimestampedScaleEvent],
    now: Time,
) -> (i32, &'static str, &'static str) {
    if args.desired_replicas > args.current_replicas {
        let mut limit = calculate_scale_up_limit_with_scaling_rules(
            args.current_replicas,
            scale_up_events,
            scale_down_events,
            &args.scale_up_behavior,
            now,
        );
        if limit < args.current_replicas {
            limit = args.current_replicas;
        }
        let (maximum, reason, message) = if args.max_replicas > limit {
            (
                limit,
                "ScaleUpLimit",
                "the desired replica count is increasing faster than the maximum scale rate",
            )
        } else {
            (
                args.max_replicas,
                "TooManyReplicas",
                "the desired replica count is more than the maximum replica count",
            )
        };
        if args.desired_replicas > maximum {
            return (maximum, reason, message);
        }
    } else if args.desired_replicas < args.current_replicas {
        let mut limit = calculate_scale_down_limit_with_behaviors(
            args.current_replicas,
            scale_up_events,
            scale_down_events,
            &args.scale_down_behavior,
            now,
        );
        if limit > args.current_replicas {
            limit = args.current_replicas;
        }
        let (minimum, reason, message) = if args.min_replicas < limit {
            (
                limit,
                "ScaleDownLimit",
                "the desired replica count is decreasing faster than the maximum scale rate",
            )
        } else {
            (
                args.min_replicas,
                "TooFewReplicas",
                "the desired replica count is less than the minimum replica count",
            )
        };
        if args.desired_replicas < minimum {
            return (minimum, reason, message);
        }
    }
    (
        args.desired_replicas,
        "DesiredWithinRange",
        "the desired count is within the acceptable range",
    )
}

/// `getLongestPolicyPeriod`.
pub fn get_longest_policy_period(rules: &HpaScalingRules) -> i32 {
    rules
        .policies
        .iter()
        .flatten()
        .map(|p| p.period_seconds)
        .max()
        .unwrap_or(0)
        .max(0)
}

/// `markScaleEventsOutdated` plus `storeScaleEvent`'s reuse of an outdated slot.
pub fn store_scale_event_in(
    events: &mut Vec<TimestampedScaleEvent>,
    longest_policy_period: i32,
    replica_change: i32,
    now: Time,
) {
    let cutoff = now - secs(longest_policy_period);
    let mut old = None;
    for (i, e) in events.iter_mut().enumerate() {
        if e.timestamp < cutoff {
            e.outdated = true;
        }
        if e.outdated {
            old = Some(i);
        }
    }
    let new = TimestampedScaleEvent {
        replica_change,
        timestamp: now,
        outdated: false,
    };
    match old {
        Some(i) => events[i] = new,
        None => events.push(new),
    }
}

/// `setConditionInList`: updates (or appends) a condition; the transition time changes only
/// when the status does.
pub fn set_condition(
    hpa: &mut HorizontalPodAutoscaler,
    type_: &str,
    status: &str,
    reason: &str,
    message: &str,
    now: Time,
) {
    let list = &mut hpa.status.conditions;
    let i = match list.iter().position(|c| c.type_ == type_) {
        Some(i) => i,
        None => {
            list.push(HorizontalPodAutoscalerCondition {
                type_: type_.into(),
                ..Default::default()
            });
            list.len() - 1
        }
    };
    let c = &mut list[i];
    if c.status != status {
        c.last_transition_time = Some(now.trunc_secs());
    }
    c.status = status.into();
    c.reason = reason.into();
    c.message = message.into();
}

/// `setStatus`: recreates the status from the current and desired replicas, the metric
/// statuses, the last scale time (now on a rescale) and the conditions; anything else —
/// `observedGeneration` — is dropped, as upstream builds a fresh status struct.
pub fn set_status(
    hpa: &mut HorizontalPodAutoscaler,
    current_replicas: i32,
    desired_replicas: i32,
    metric_statuses: Vec<MetricStatus>,
    rescale: bool,
    now: Time,
) {
    let old = std::mem::take(&mut hpa.status);
    hpa.status = crate::api::autoscaling::HorizontalPodAutoscalerStatus {
        current_replicas,
        desired_replicas,
        last_scale_time: if rescale {
            Some(now.trunc_secs())
        } else {
            old.last_scale_time
        },
        current_metrics: metric_statuses,
        conditions: old.conditions,
        observed_generation: None,
    };
}

/// `setCurrentReplicasAndMetricsInStatus`: `setStatus` keeping the desired replicas, without a
/// rescale.
pub fn set_current_replicas_and_metrics_in_status(
    hpa: &mut HorizontalPodAutoscaler,
    current_replicas: i32,
    metric_statuses: Vec<MetricStatus>,
) {
    let desired = hpa.status.desired_replicas;
    set_status(
        hpa,
        current_replicas,
        desired,
        metric_statuses,
        false,
        Time::default(),
    );
}

/// `resource.NewMilliQuantity(v, DecimalSI)` in its canonical string form (`Quantity.String()`:
/// factors of ten stripped to an exponent that is a multiple of three, with its SI suffix, so
/// 1,000,000m is `1k`).
pub fn milli_quantity(v: i64) -> Quantity {
    if let Ok(q) = crate::api::validation::quantity::parse_quantity(&format!("{v}m")) {
        return Quantity(q.canonical());
    }
    if v % 1000 == 0 {
        Quantity((v / 1000).to_string())
    } else {
        Quantity(format!("{v}m"))
    }
}

/// The HPA controller: stabilization and scale-event history per HPA key (in memory, lost on
/// restart), and the kube-controller-manager flags.
#[derive(Default)]
pub struct HorizontalController {
    pub replica_calc: ReplicaCalculator,
    pub sync_period: Duration,
    pub downscale_stabilisation_window: Duration,
    pub recommendations: BTreeMap<String, Vec<TimestampedRecommendation>>,
    pub scale_up_events: BTreeMap<String, Vec<TimestampedScaleEvent>>,
    pub scale_down_events: BTreeMap<String, Vec<TimestampedScaleEvent>>,
    /// `hpaSelectors`: every HPA key seen by the informer, with the selector of its target's
    /// scale once a reconcile has parsed it (`None` is `labels.Nothing()`, registered by
    /// `enqueueHPA`). Used to refuse pods that more than one HPA selects.
    pub hpa_selectors: BTreeMap<String, Option<Selector>>,
    /// A fake resource metrics API (resource name → pod name → sample), as the fake metrics
    /// clientset of `horizontal_test.go`; `None` reads the scenario's load model.
    pub fake_metrics: Option<BTreeMap<String, super::replica_calculator::PodMetricsInfo>>,
}

/// `computeReplicasForMetrics`' result: (replicas, metric name, the error of a metric that
/// failed while the others still scale), or the error that stops the sync.
type MetricsOutcome = Result<(i32, String, Option<String>), String>;

/// One metric's outcome in `computeReplicasForMetric`.
struct MetricProposal {
    replicas: i32,
    name: String,
}

/// A failed metric: the error `computeReplicasForMetric` returns (`err`), and the one
/// `getUnableComputeReplicaCountCondition` puts in the event and condition (`cond_err`, often
/// without the outer wrapping), with the condition reason.
struct MetricFailure {
    err: String,
    cond_err: String,
    reason: String,
}

impl HorizontalController {
    pub fn new() -> Self {
        HorizontalController {
            replica_calc: ReplicaCalculator::default(),
            sync_period: DEFAULT_SYNC_PERIOD,
            downscale_stabilisation_window: DEFAULT_DOWNSCALE_STABILISATION_WINDOW,
            ..Default::default()
        }
    }

    /// `hpasControllingPodsUnderSelector`: the keys (`namespace/name`, sorted; upstream's order
    /// is a map's) of the registered HPAs whose selector picks any pod `selector` picks in the
    /// HPA's namespace.
    pub fn hpas_controlling_pods_under_selector(
        &self,
        store: &Store,
        hpa: &HorizontalPodAutoscaler,
        selector: &Selector,
    ) -> Vec<String> {
        let ns = hpa.metadata.namespace.as_str();
        let prefix = format!("{ns}/");
        let mut out = std::collections::BTreeSet::new();
        for p in store
            .list::<Pod>(Some(ns))
            .filter(|p| selector.matches(&p.metadata.labels))
        {
            for (k, sel) in &self.hpa_selectors {
                if k.starts_with(&prefix)
                    && sel.as_ref().is_some_and(|s| s.matches(&p.metadata.labels))
                {
                    out.insert(k.clone());
                }
            }
        }
        out.into_iter().collect()
    }

    /// `enqueueHPA`: `AddRateLimited` (the fixed-interval limiter: `AddAfter(resyncPeriod)`),
    /// and registers the key in `hpaSelectors` with the Nothing selector if absent.
    fn enqueue_hpa(&mut self, key: &str, queue: &mut WorkQueue, now: Time) {
        queue.add_after(key, self.sync_period, now);
        self.hpa_selectors.entry(key.to_string()).or_insert(None);
    }

    /// `tolerancesForHpa`: the controller's tolerance both ways, overridden per direction by
    /// `behavior.scaleDown.tolerance` / `behavior.scaleUp.tolerance` when the
    /// HPAConfigurableTolerance gate is on (a quantity, read as `AsApproximateFloat64`).
    pub fn tolerances_for_hpa(
        &self,
        hpa: &HorizontalPodAutoscaler,
        gates: &FeatureGates,
    ) -> Tolerances {
        let mut t = Tolerances::uniform(self.replica_calc.tolerance);
        let Some(b) = hpa.spec.behavior.as_ref() else {
            return t;
        };
        if !gates.enabled("HPAConfigurableTolerance") {
            return t;
        }
        let approx = |q: &Quantity| {
            crate::api::validation::quantity::parse_quantity(q.0.trim())
                .ok()
                .map(|p| p.nanos as f64 / 1e9)
        };
        if let Some(v) = b
            .scale_down
            .as_ref()
            .and_then(|r| r.tolerance.as_ref())
            .and_then(approx)
        {
            t.scale_down = v;
        }
        if let Some(v) = b
            .scale_up
            .as_ref()
            .and_then(|r| r.tolerance.as_ref())
            .and_then(approx)
        {
            t.scale_up = v;
        }
        t
    }

    /// `computeStatusForResourceMetric` for one `Resource` metric.
    fn compute_for_resource_metric(
        &self,
        ctx: &Ctx,
        spec: &MetricSpec,
        namespace: &str,
        current_replicas: i32,
        selector: &Selector,
        tolerances: Tolerances,
    ) -> Result<(MetricProposal, MetricStatus), String> {
        let r = spec.resource.as_ref().ok_or_else(|| {
            "invalid resource metric source: neither an average utilization target nor an average value (usage) target was set".to_string()
        })?;
        let name = r.name.as_str();
        let pods: Vec<&Pod> = ctx
            .store()
            .list::<Pod>(Some(namespace))
            .filter(|p| selector.matches(&p.metadata.labels))
            .collect();
        let now = ctx.now();
        let all = match &self.fake_metrics {
            Some(m) => m.get(name).cloned().unwrap_or_default(),
            None => ctx
                .world
                .load
                .pod_metrics(ctx.store(), namespace, name, now),
        };
        let metrics = all
            .into_iter()
            .filter(|(k, _)| pods.iter().any(|p| &p.metadata.name == k))
            .collect_btree_map();
        let no_metrics = || {
            format!("unable to get metrics for resource {name}: no metrics returned from resource metrics API")
        };
        if let Some(av) = &r.target.average_value {
            let target = crate::scenario::load::milli(av) as i64;
            if metrics.is_empty() {
                return Err(format!("failed to get {name} usage: {}", no_metrics()));
            }
            let (replicas, usage) = self
                .replica_calc
                .get_raw_resource_replicas(
                    current_replicas,
                    target,
                    name,
                    tolerances,
                    &pods,
                    &metrics,
                    now,
                )
                .map_err(|e| format!("failed to get {name} usage: {e}"))?;
            return Ok((
                MetricProposal {
                    replicas,
                    name: format!("{name} resource"),
                },
                MetricStatus {
                    type_: "Resource".into(),
                    resource: Some(ResourceMetricStatus {
                        name: name.into(),
                        current: MetricValueStatus {
                            average_value: Some(milli_quantity(usage)),
                            ..Default::default()
                        },
                    }),
                    ..Default::default()
                },
            ));
        }
        let Some(target) = r.target.average_utilization else {
            return Err("invalid resource metric source: neither an average utilization target nor an average value (usage) target was set".into());
        };
        if metrics.is_empty() {
            return Err(format!(
                "failed to get {name} utilization: {}",
                no_metrics()
            ));
        }
        let (replicas, utilization, raw) = self
            .replica_calc
            .get_resource_replicas(
                current_replicas,
                target,
                name,
                tolerances,
                &pods,
                &metrics,
                now,
            )
            .map_err(|e| format!("failed to get {name} utilization: {e}"))?;
        Ok((
            MetricProposal {
                replicas,
                name: format!("{name} resource utilization (percentage of request)"),
            },
            MetricStatus {
                type_: "Resource".into(),
                resource: Some(ResourceMetricStatus {
                    name: name.into(),
                    current: MetricValueStatus {
                        average_utilization: Some(utilization),
                        average_value: Some(milli_quantity(raw)),
                        ..Default::default()
                    },
                }),
                ..Default::default()
            },
        ))
    }

    /// `computeReplicasForMetrics`: the largest proposal over the metrics, their statuses, or
    /// an error when every metric failed (or some failed and the others would scale down).
    fn compute_replicas_for_metrics(
        &mut self,
        ctx: &mut Ctx,
        hpa: &mut HorizontalPodAutoscaler,
        scale: &Scale,
    ) -> (MetricsOutcome, Vec<MetricStatus>) {
        let now = ctx.now();
        let tolerances = self.tolerances_for_hpa(hpa, ctx.gates);
        // `calculateRequests` reads the PodLevelResources gate.
        self.replica_calc.pod_level_resources = ctx.gates.enabled("PodLevelResources");
        let hpa_obj = hpa.clone().into_object();
        if scale.selector.is_empty() {
            let msg = "selector is required";
            ctx.event(&hpa_obj, "Warning", "SelectorRequired", msg);
            set_condition(
                hpa,
                SCALING_ACTIVE,
                "False",
                "InvalidSelector",
                "the HPA target's scale is missing a selector",
                now,
            );
            return (Err(msg.into()), vec![]);
        }
        let selector = match Selector::parse(&scale.selector) {
            Ok(s) => s,
            Err(e) => {
                let msg = format!(
                    "couldn't convert selector into a corresponding internal selector object: {e}"
                );
                ctx.event(&hpa_obj, "Warning", "InvalidSelector", &msg);
                set_condition(hpa, SCALING_ACTIVE, "False", "InvalidSelector", &msg, now);
                return (Err(msg), vec![]);
            }
        };
        // The rest of validateAndParseSelector: record this HPA's selector (only when enqueueHPA
        // registered it), then refuse pods that another HPA's selector also picks.
        let hpa_key = hpa.metadata.key();
        if let Some(sel) = self.hpa_selectors.get_mut(&hpa_key) {
            *sel = Some(selector.clone());
        }
        let selecting = self.hpas_controlling_pods_under_selector(ctx.store(), hpa, &selector);
        if selecting.len() > 1 {
            let msg = format!(
                "pods by selector {} are controlled by multiple HPAs: [{}]",
                scale.selector,
                selecting.join(" ")
            );
            ctx.event(&hpa_obj, "Warning", "AmbiguousSelector", &msg);
            set_condition(hpa, SCALING_ACTIVE, "False", "AmbiguousSelector", &msg, now);
            return (Err(msg), vec![]);
        }
        let specs = hpa.spec.metrics.clone();
        let mut statuses = vec![MetricStatus::default(); specs.len()];
        let mut replicas = 0;
        let mut metric = String::new();
        let mut invalid = 0usize;
        let mut first: Option<MetricFailure> = None;
        for (i, spec) in specs.iter().enumerate() {
            let res = match spec.type_.as_str() {
                "Resource" => self
                    .compute_for_resource_metric(
                        ctx,
                        spec,
                        &hpa.metadata.namespace,
                        scale.spec_replicas,
                        &selector,
                        tolerances,
                    )
                    .map_err(|e| MetricFailure {
                        err: format!(
                            "failed to get {} resource metric value: {e}",
                            spec.resource.as_ref().map_or("", |r| r.name.as_str())
                        ),
                        cond_err: e,
                        reason: "FailedGetResourceMetric".into(),
                    }),
                t @ ("Pods" | "Object" | "External" | "ContainerResource") => {
                    // kubeplay serves no custom or external metrics API (and no per-container
                    // samples): the metrics clients' discovery error, wrapped as upstream's
                    // computeReplicasForMetric wraps each source type's error.
                    let field = |v: &Option<serde_json::Value>, path: &[&str]| {
                        let mut cur = v.as_ref();
                        for p in path {
                            cur = cur.and_then(|c| c.get(*p));
                        }
                        cur.and_then(|c| c.as_str()).unwrap_or("").to_string()
                    };
                    let (reason, cond_err, err) = match t {
                        "Pods" => {
                            let name = field(&spec.pods, &["metric", "name"]);
                            let e = format!("unable to get metric {name}: unable to fetch metrics from custom metrics API: no custom metrics API (custom.metrics.k8s.io) registered");
                            (
                                "FailedGetPodsMetric",
                                e.clone(),
                                format!("failed to get pods metric value: {e}"),
                            )
                        }
                        "Object" => {
                            let name = field(&spec.object, &["metric", "name"]);
                            let e = format!("unable to get metric {name}: unable to fetch metrics from custom metrics API: no custom metrics API (custom.metrics.k8s.io) registered");
                            (
                                "FailedGetObjectMetric",
                                e.clone(),
                                format!("failed to get object metric value: {e}"),
                            )
                        }
                        "External" => {
                            let name = field(&spec.external, &["metric", "name"]);
                            let e = format!("unable to get external metric {}/{name}/nil: unable to fetch metrics from external metrics API: the server could not find the requested resource", hpa.metadata.namespace);
                            (
                                "FailedGetExternalMetric",
                                e.clone(),
                                format!("failed to get {name} external metric value: {e}"),
                            )
                        }
                        _ => {
                            let name = field(&spec.container_resource, &["name"]);
                            let container = field(&spec.container_resource, &["container"]);
                            let e = format!("failed to get {name} utilization: unable to get metrics for resource {name}: no metrics returned from resource metrics API");
                            (
                                "FailedGetContainerResourceMetric",
                                e.clone(),
                                format!("failed to get {container} container metric value: {e}"),
                            )
                        }
                    };
                    Err(MetricFailure {
                        err,
                        cond_err,
                        reason: reason.into(),
                    })
                }
                other => {
                    let e = format!("unknown metric source type {}", crate::api::go_quote(other));
                    Err(MetricFailure {
                        err: e.clone(),
                        cond_err: e,
                        reason: "InvalidMetricSourceType".into(),
                    })
                }
            };
            match res {
                Ok((p, st)) => {
                    statuses[i] = st;
                    if replicas == 0 || p.replicas > replicas {
                        replicas = p.replicas;
                        metric = p.name;
                    }
                }
                Err(f) => {
                    // getUnableComputeReplicaCountCondition records the event.
                    ctx.event(&hpa_obj, "Warning", &f.reason, &f.cond_err);
                    if invalid == 0 {
                        first = Some(f);
                    }
                    invalid += 1;
                }
            }
        }
        if invalid >= specs.len() || (invalid > 0 && replicas < scale.spec_replicas) {
            // No metrics at all: upstream sets an empty condition type (a no-op here).
            let Some(f) = first else {
                return (
                    Err("invalid metrics (0 invalid out of 0), first error is: <nil>".into()),
                    statuses,
                );
            };
            set_condition(
                hpa,
                SCALING_ACTIVE,
                "False",
                &f.reason,
                &format!(
                    "the HPA was unable to compute the replica count: {}",
                    f.cond_err
                ),
                now,
            );
            return (
                Err(format!(
                    "invalid metrics ({invalid} invalid out of {}), first error is: {}",
                    specs.len(),
                    f.err
                )),
                statuses,
            );
        }
        set_condition(
            hpa,
            SCALING_ACTIVE,
            "True",
            "ValidMetricFound",
            &format!("the HPA was able to successfully calculate a replica count from {metric}"),
            now,
        );
        // Some metrics failed but the others scale up: scale, and report the error anyway.
        let partial = first.map(|f| {
            format!(
                "invalid metrics ({invalid} invalid out of {}), first error is: {}",
                specs.len(),
                f.err
            )
        });
        (Ok((replicas, metric, partial)), statuses)
    }

    /// `normalizeDesiredReplicas` (no `behavior`).
    fn normalize_desired_replicas(
        &mut self,
        hpa: &mut HorizontalPodAutoscaler,
        key: &str,
        current: i32,
        prenormalized: i32,
        min_replicas: i32,
        now: Time,
    ) -> i32 {
        let recs = self.recommendations.entry(key.to_string()).or_default();
        let stabilized = stabilize_recommendation(
            recs,
            prenormalized,
            self.downscale_stabilisation_window,
            now,
        );
        if stabilized != prenormalized {
            set_condition(hpa, ABLE_TO_SCALE, "True", "ScaleDownStabilized", "recent recommendations were higher than current one, applying the highest recent recommendation", now);
        } else {
            set_condition(
                hpa,
                ABLE_TO_SCALE,
                "True",
                "ReadyForNewScale",
                "recommended size matches current size",
                now,
            );
        }
        let (desired, reason, message) = convert_desired_replicas_with_rules(
            current,
            stabilized,
            min_replicas,
            hpa.spec.max_replicas,
        );
        let status = if desired == stabilized {
            "False"
        } else {
            "True"
        };
        set_condition(hpa, SCALING_LIMITED, status, reason, message, now);
        desired
    }

    /// `normalizeDesiredReplicasWithBehaviors`.
    fn normalize_desired_replicas_with_behaviors(
        &mut self,
        hpa: &mut HorizontalPodAutoscaler,
        key: &str,
        current: i32,
        prenormalized: i32,
        min_replicas: i32,
        now: Time,
    ) -> i32 {
        let b = hpa.spec.behavior.clone().unwrap_or_default();
        let up = b
            .scale_up
            .unwrap_or_else(crate::api::autoscaling::default_scale_up_rules);
        let mut down = b
            .scale_down
            .unwrap_or_else(crate::api::autoscaling::default_scale_down_rules);
        // maybeInitScaleDownStabilizationWindow
        if down.stabilization_window_seconds.is_none() {
            down.stabilization_window_seconds =
                Some((self.downscale_stabilisation_window.as_millis() / 1000) as i32);
        }
        let mut args = NormalizationArg {
            scale_up_behavior: up,
            scale_down_behavior: down,
            min_replicas,
            max_replicas: hpa.spec.max_replicas,
            current_replicas: current,
            desired_replicas: prenormalized,
        };
        let recs = self.recommendations.entry(key.to_string()).or_default();
        let (stabilized, reason, message) =
            stabilize_recommendation_with_behaviors(recs, &args, now);
        args.desired_replicas = stabilized;
        if stabilized != prenormalized {
            set_condition(hpa, ABLE_TO_SCALE, "True", reason, message, now);
        } else {
            set_condition(
                hpa,
                ABLE_TO_SCALE,
                "True",
                "ReadyForNewScale",
                "recommended size matches current size",
                now,
            );
        }
        let empty = vec![];
        let up_ev = self.scale_up_events.get(key).unwrap_or(&empty);
        let down_ev = self.scale_down_events.get(key).unwrap_or(&empty);
        let (desired, reason, message) =
            convert_desired_replicas_with_behavior_rate(&args, up_ev, down_ev, now);
        let status = if desired == stabilized {
            "False"
        } else {
            "True"
        };
        set_condition(hpa, SCALING_LIMITED, status, reason, message, now);
        desired
    }

    /// `storeScaleEvent`: only HPAs with `behavior` keep scale events.
    fn store_scale_event(
        &mut self,
        hpa: &HorizontalPodAutoscaler,
        key: &str,
        prev: i32,
        new: i32,
        now: Time,
    ) {
        let Some(b) = &hpa.spec.behavior else {
            return;
        };
        if new > prev {
            let p = b.scale_up.as_ref().map_or(15, get_longest_policy_period);
            let ev = self.scale_up_events.entry(key.to_string()).or_default();
            store_scale_event_in(ev, p, new - prev, now);
        } else {
            let p = b.scale_down.as_ref().map_or(15, get_longest_policy_period);
            let ev = self.scale_down_events.entry(key.to_string()).or_default();
            store_scale_event_in(ev, p, prev - new, now);
        }
    }

    /// `updateStatusIfNeeded`.
    fn update_status_if_needed(
        ctx: &mut Ctx,
        original: &crate::api::autoscaling::HorizontalPodAutoscalerStatus,
        hpa: &HorizontalPodAutoscaler,
    ) -> Result<(), ApiError> {
        if *original == hpa.status {
            return Ok(());
        }
        match ctx.update_status(hpa.clone().into_object()) {
            Ok(_) => Ok(()),
            Err(e) => {
                let o = hpa.clone().into_object();
                ctx.event(&o, "Warning", "FailedUpdateStatus", &e.message);
                Err(e)
            }
        }
    }

    /// `reconcileAutoscaler`.
    ///
    /// # Errors
    /// The sync's failure (it is retried at the next sync period anyway).
    pub fn reconcile_autoscaler(
        &mut self,
        shared: &HorizontalPodAutoscaler,
        key: &str,
        ctx: &mut Ctx,
    ) -> Result<(), String> {
        let now = ctx.now();
        let mut hpa = shared.clone();
        let original = hpa.status.clone();
        let ns = hpa.metadata.namespace.clone();
        let target = hpa.spec.scale_target_ref.clone();
        let reference = format!("{}/{}/{}", target.kind, ns, target.name);

        let fail_get_scale = |ctx: &mut Ctx, hpa: &mut HorizontalPodAutoscaler, err: &str| {
            let o = hpa.clone().into_object();
            ctx.event(&o, "Warning", "FailedGetScale", err);
            set_condition(
                hpa,
                ABLE_TO_SCALE,
                "False",
                "FailedGetScale",
                &format!("the HPA controller was unable to get the target's current scale: {err}"),
                now,
            );
            let _ = Self::update_status_if_needed(ctx, &original, hpa);
        };
        // schema.ParseGroupVersion
        let group = {
            let av = target.api_version.as_str();
            let parts: Vec<&str> = av.split('/').collect();
            match parts.len() {
                _ if av.is_empty() => String::new(),
                1 if av == "v1" => String::new(),
                1 => {
                    let e = format!("unexpected GroupVersion string: {av}");
                    fail_get_scale(ctx, &mut hpa, &e);
                    return Err(format!(
                        "invalid API version in scale target reference: {e}"
                    ));
                }
                2 => parts[0].to_string(),
                _ => {
                    let e = format!("unexpected GroupVersion string: {av}");
                    fail_get_scale(ctx, &mut hpa, &e);
                    return Err(format!(
                        "invalid API version in scale target reference: {e}"
                    ));
                }
            }
        };
        let kind = match rest_mapping(&group, &target.kind) {
            Ok(k) => k,
            Err(e) => {
                fail_get_scale(ctx, &mut hpa, &e);
                return Err(format!(
                    "unable to determine resource for scale target reference: {e}"
                ));
            }
        };
        let scale = match get_scale(ctx.store(), kind, &ns, &target.name) {
            Ok(s) => s,
            Err(e) => {
                fail_get_scale(ctx, &mut hpa, &e.message);
                return Err(format!(
                    "failed to query scale subresource for {reference}: {}",
                    e.message
                ));
            }
        };
        set_condition(
            &mut hpa,
            ABLE_TO_SCALE,
            "True",
            "SucceededGetScale",
            "the HPA controller was able to get the target's current scale",
            now,
        );
        let current = scale.spec_replicas;
        // recordInitialRecommendation
        self.recommendations
            .entry(key.to_string())
            .or_insert_with(|| {
                vec![TimestampedRecommendation {
                    recommendation: current,
                    timestamp: now,
                }]
            });

        let min_replicas = hpa.spec.min_replicas.unwrap_or(1);
        let mut desired = 0;
        let mut rescale_reason = String::new();
        let mut rescale = true;
        let mut metric_statuses: Vec<MetricStatus> = vec![];
        let mut ret_err: Option<String> = None;
        if scale.spec_replicas == 0 && min_replicas != 0 {
            desired = 0;
            rescale = false;
            set_condition(
                &mut hpa,
                SCALING_ACTIVE,
                "False",
                "ScalingDisabled",
                "scaling is disabled since the replica count of the target is zero",
                now,
            );
        } else if current > hpa.spec.max_replicas {
            rescale_reason = "Current number of replicas above Spec.MaxReplicas".into();
            desired = hpa.spec.max_replicas;
        } else if current < min_replicas {
            rescale_reason = "Current number of replicas below Spec.MinReplicas".into();
            desired = min_replicas;
        } else {
            let (res, statuses) = self.compute_replicas_for_metrics(ctx, &mut hpa, &scale);
            metric_statuses = statuses;
            let (metric_desired, metric_name, partial) = match res {
                Ok(x) => x,
                Err(e) => {
                    set_current_replicas_and_metrics_in_status(&mut hpa, current, metric_statuses);
                    let _ = Self::update_status_if_needed(ctx, &original, &hpa);
                    let o = hpa.clone().into_object();
                    ctx.event(&o, "Warning", "FailedComputeMetricsReplicas", &e);
                    return Err(format!("failed to compute desired number of replicas based on listed metrics for {reference}: {e}"));
                }
            };
            // "We proceed to scaling, but return this error from reconcileAutoscaler() finally."
            ret_err = partial;
            let mut rescale_metric = String::new();
            if metric_desired > desired {
                desired = metric_desired;
                rescale_metric = metric_name;
            }
            if desired > current {
                rescale_reason = format!("{rescale_metric} above target");
            }
            if desired < current {
                rescale_reason = "All metrics below target".into();
            }
            desired = if hpa.spec.behavior.is_none() {
                self.normalize_desired_replicas(&mut hpa, key, current, desired, min_replicas, now)
            } else {
                self.normalize_desired_replicas_with_behaviors(
                    &mut hpa,
                    key,
                    current,
                    desired,
                    min_replicas,
                    now,
                )
            };
            rescale = desired != current;
        }

        if rescale {
            if let Err(e) = update_scale(ctx, kind, &ns, &target.name, desired) {
                let o = hpa.clone().into_object();
                ctx.event(
                    &o,
                    "Warning",
                    "FailedRescale",
                    &format!(
                        "New size: {desired}; reason: {rescale_reason}; error: {}",
                        e.message
                    ),
                );
                set_condition(
                    &mut hpa,
                    ABLE_TO_SCALE,
                    "False",
                    "FailedUpdateScale",
                    &format!(
                        "the HPA controller was unable to update the target scale: {}",
                        e.message
                    ),
                    now,
                );
                set_current_replicas_and_metrics_in_status(&mut hpa, current, metric_statuses);
                let _ = Self::update_status_if_needed(ctx, &original, &hpa);
                return Err(format!("failed to rescale {reference}: {}", e.message));
            }
            set_condition(
                &mut hpa,
                ABLE_TO_SCALE,
                "True",
                "SucceededRescale",
                &format!("the HPA controller was able to update the target scale to {desired}"),
                now,
            );
            let o = hpa.clone().into_object();
            ctx.event(
                &o,
                "Normal",
                "SuccessfulRescale",
                &format!("New size: {desired}; reason: {rescale_reason}"),
            );
            self.store_scale_event(&hpa, key, current, desired, now);
        } else {
            desired = current;
        }
        set_status(&mut hpa, current, desired, metric_statuses, rescale, now);
        Self::update_status_if_needed(ctx, &original, &hpa).map_err(|e| e.message)?;
        ret_err.map_or(Ok(()), Err)
    }
}

impl Controller for HorizontalController {
    fn name(&self) -> &'static str {
        COMPONENT
    }

    /// `enqueueHPA` / `updateHPA` use `AddRateLimited` on a queue whose rate limiter is a
    /// fixed `resyncPeriod`: every HPA is processed 15 s after it is added or changed, and at
    /// most once per period. `deleteHPA` only forgets.
    fn watch(&mut self, change: &Change, _store: &Store, queue: &mut WorkQueue, now: Time) {
        match (change.old_obj(), change.new_obj()) {
            (_, Some(Object::HorizontalPodAutoscaler(h))) => {
                self.enqueue_hpa(&h.metadata.key(), queue, now);
            }
            // deleteHPA: `queue.Forget(key)` (a no-op on a fixed-interval limiter) and drop the
            // selector; the pending key still fires once and finds the HPA gone.
            (Some(Object::HorizontalPodAutoscaler(h)), None) => {
                let key = h.metadata.key();
                queue.forget(&key);
                self.hpa_selectors.remove(&key);
            }
            _ => {}
        }
    }

    fn sync(&mut self, key: &str, ctx: &mut Ctx) -> Result<(), ApiError> {
        let (ns, name) = key.split_once('/').unwrap_or(("", key));
        let Some(hpa) = ctx
            .store()
            .get::<HorizontalPodAutoscaler>(ns, name)
            .cloned()
        else {
            self.recommendations.remove(key);
            self.scale_up_events.remove(key);
            self.scale_down_events.remove(key);
            return Ok(());
        };
        // Errors are reported through events and conditions; the key comes back every sync
        // period either way (processNextWorkItem re-adds it).
        let _ = self.reconcile_autoscaler(&hpa, key, ctx);
        ctx.requeue_after(key, self.sync_period);
        Ok(())
    }

    fn reset(&mut self) {
        self.recommendations.clear();
        self.scale_up_events.clear();
        self.scale_down_events.clear();
        self.hpa_selectors.clear();
    }

    /// Without a clock: every HPA at once (only direct callers; the simulation uses
    /// [`Controller::resync_all_at`]).
    fn resync_all(&mut self, store: &Store, queue: &mut WorkQueue) {
        for h in store.list::<HorizontalPodAutoscaler>(None) {
            let key = h.metadata.key();
            queue.add(&key);
            self.hpa_selectors.entry(key).or_insert(None);
        }
    }

    /// The informer's initial list delivers an add per HPA, and `enqueueHPA` uses
    /// `AddRateLimited`: on a (re)start every existing HPA is first synced one resync period
    /// (15 s) later, not at once.
    fn resync_all_at(&mut self, store: &Store, queue: &mut WorkQueue, now: Time) {
        for h in store.list::<HorizontalPodAutoscaler>(None) {
            self.enqueue_hpa(&h.metadata.key(), queue, now);
        }
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// A boxed HPA controller for `Simulation::add_loop`.
pub fn new_horizontal_controller() -> Box<dyn Controller> {
    Box::new(HorizontalController::new())
}

#[cfg(test)]
#[path = "horizontal_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "horizontal_controller_tests.rs"]
mod controller_tests;

#[cfg(test)]
#[path = "horizontal_upstream_tests2.rs"]
mod upstream_tests2;

#[cfg(test)]
#[path = "horizontal_rate_limiter_tests.rs"]
mod rate_limiter_tests;
