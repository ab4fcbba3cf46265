//! The HPA's replica calculator (`pkg/controller/podautoscaler/replica_calculator.go` and
//! `metrics/utilization.go`): pure functions from pods, metrics and a target to a replica count.

use crate::api::validation::quantity::parse_quantity;
use crate::api::{Duration, Pod, Time};
use crate::controllers::controller_utils::get_pod_ready_condition;
use crate::scenario::load::PodMetric;
use crate::sort::CollectBTreeMap as _;
use std::collections::{BTreeMap, BTreeSet};

/// `--horizontal-pod-autoscaler-tolerance`.
pub const DEFAULT_TOLERANCE: f64 = 0.1;
/// `--horizontal-pod-autoscaler-cpu-initialization-period`.
pub const DEFAULT_CPU_INITIALIZATION_PERIOD: Duration = Duration::from_secs(300);
/// `--horizontal-pod-autoscaler-initial-readiness-delay`.
pub const DEFAULT_INITIAL_READINESS_DELAY: Duration = Duration::from_secs(30);

/// Pod metrics by pod name (milli-units).
pub type PodMetricsInfo = BTreeMap<String, PodMetric>;

/// How `groupPods` sorted the pods.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PodGroups {
    pub ready_pod_count: usize,
    pub unready_pods: BTreeSet<String>,
    pub missing_pods: BTreeSet<String>,
    pub ignored_pods: BTreeSet<String>,
}

/// `groupPods`: deleted and failed pods are ignored; pending pods are unready; pods without a
/// sample are missing; for CPU, a pod is unready when it has no Ready condition or start time,
/// or — within `cpuInitializationPeriod` of its start — is not ready or was sampled less than a
/// window after its readiness changed, or — later — is not ready and never was ready (its
/// Ready condition changed within `delayOfInitialReadinessStatus` of its start).
pub fn group_pods(
    pods: &[&Pod],
    metrics: &PodMetricsInfo,
    resource: &str,
    cpu_initialization_period: Duration,
    delay_of_initial_readiness_status: Duration,
    now: Time,
) -> PodGroups {
    let mut g = PodGroups::default();
    for pod in pods {
        let name = pod.metadata.name.clone();
        if pod.metadata.deletion_timestamp.is_some() || pod.status.phase == "Failed" {
            g.ignored_pods.insert(name);
            continue;
        }
        if pod.status.phase == "Pending" {
            g.unready_pods.insert(name);
            continue;
        }
        let Some(metric) = metrics.get(&name) else {
            g.missing_pods.insert(name);
            continue;
        };
        if resource == "cpu" {
            let cond = get_pod_ready_condition(pod);
            let unready = match (cond, pod.status.start_time) {
                (Some(c), Some(start)) => {
                    let transition = c.last_transition_time.unwrap_or_default();
                    if start + cpu_initialization_period > now {
                        c.status == "False" || metric.timestamp < transition + metric.window
                    } else {
                        c.status == "False"
                            && start + delay_of_initial_readiness_status > transition
                    }
                }
                _ => true,
            };
            if unready {
                g.unready_pods.insert(name);
                continue;
            }
        }
        g.ready_pod_count += 1;
    }
    g
}

/// `calculateRequests` (with no container name: kubeplay serves no ContainerResource metrics):
/// each pod's request for `resource` (milli-units). With `PodLevelResources` on and pod-level
/// requests set (`IsPodLevelRequestsSet`: a cpu, memory or hugepages-* request in
/// `spec.resources.requests`), `calculatePodLevelRequests`: `PodRequests` — the containers'
/// aggregate with the pod-level values put over it. Otherwise
/// `calculatePodRequestsFromContainers`: the sum over the containers and restartable (sidecar)
/// init containers.
///
/// # Errors
/// `missing request for <resource> in container <c> of Pod <pod>`, or with pod-level requests
/// `missing pod-level request for <resource> in Pod <pod>`.
pub fn calculate_pod_requests(
    pods: &[&Pod],
    resource: &str,
    pod_level_resources: bool,
) -> Result<BTreeMap<String, i64>, String> {
    let mut out = BTreeMap::new();
    for pod in pods {
        let request = if pod_level_resources && is_pod_level_requests_set(pod) {
            calculate_pod_level_requests(pod, resource)?
        } else {
            calculate_pod_requests_from_containers(pod, resource)?
        };
        out.insert(pod.metadata.name.clone(), request);
    }
    Ok(out)
}

/// `IsSupportedPodLevelResource`: cpu, memory and hugepages-*.
fn is_supported_pod_level_resource(name: &str) -> bool {
    name == "cpu" || name == "memory" || name.starts_with("hugepages-")
}

/// `IsPodLevelRequestsSet`: `spec.resources.requests` names a supported resource.
pub fn is_pod_level_requests_set(pod: &Pod) -> bool {
    pod.spec.resources.as_ref().is_some_and(|r| {
        r.requests
            .keys()
            .any(|k| is_supported_pod_level_resource(k))
    })
}

fn milli(q: &crate::api::Quantity) -> Option<i64> {
    parse_quantity(&q.0)
        .ok()
        .map(|q| q.milli_value().clamp(0, i64::MAX as i128) as i64)
}

/// `calculatePodLevelRequests`: `resourcehelpers.PodRequests(pod, {})[resource]` — a supported
/// pod-level request wins; else the containers' aggregate (`AggregateContainerRequests`: regular
/// containers plus sidecars, or the largest init-time need when that is higher), which has the
/// resource when some container requests it.
fn calculate_pod_level_requests(pod: &Pod, resource: &str) -> Result<i64, String> {
    let pod_level = pod
        .spec
        .resources
        .as_ref()
        .and_then(|r| r.requests.get(resource))
        .filter(|_| is_supported_pod_level_resource(resource));
    // An unparsable quantity cannot be stored (validation): treat it as missing.
    let request = pod_level
        .and_then(milli)
        .or_else(|| aggregate_container_request(pod, resource));
    // `PodRequests` adds `spec.overhead` (ExcludeOverhead is false).
    let overhead = pod
        .spec
        .extra
        .get("overhead")
        .and_then(|o| o.get(resource))
        .and_then(|v| v.as_str().map(String::from).or_else(|| Some(v.to_string())))
        .and_then(|q| milli(&crate::api::Quantity(q)));
    match (request, overhead) {
        (Some(r), Some(o)) => Ok(r.saturating_add(o)),
        (Some(v), None) | (None, Some(v)) => Ok(v),
        (None, None) => Err(format!(
            "missing pod-level request for {resource} in Pod {}",
            pod.metadata.name
        )),
    }
}

/// `AggregateContainerRequests` for one resource: the sum over the regular containers and the
/// restartable init containers, raised to what any one (non-restartable) init container needs
/// while it runs next to the sidecars started before it. `None` when no container requests it.
fn aggregate_container_request(pod: &Pod, resource: &str) -> Option<i64> {
    let req = |c: &crate::api::Container| {
        c.resources
            .as_ref()
            .and_then(|r| r.requests.get(resource))
            .and_then(milli)
    };
    let mut found = false;
    let mut sum: i64 = 0;
    for c in &pod.spec.containers {
        if let Some(v) = req(c) {
            found = true;
            sum = sum.saturating_add(v);
        }
    }
    let mut restartable: i64 = 0;
    let mut init_max: i64 = 0;
    for c in &pod.spec.init_containers {
        let v = req(c);
        found |= v.is_some();
        let v = v.unwrap_or(0);
        if c.restart_policy.as_deref() == Some("Always") {
            restartable = restartable.saturating_add(v);
            sum = sum.saturating_add(v);
            init_max = init_max.max(restartable);
        } else {
            init_max = init_max.max(restartable.saturating_add(v));
        }
    }
    found.then_some(sum.max(init_max))
}

/// `calculatePodRequestsFromContainers` with no container name: the sum over the containers and
/// restartable (sidecar) init containers, each of which must request `resource`.
fn calculate_pod_requests_from_containers(pod: &Pod, resource: &str) -> Result<i64, String> {
    let mut sum: i64 = 0;
    let sidecars = pod
        .spec
        .init_containers
        .iter()
        .filter(|c| c.restart_policy.as_deref() == Some("Always"));
    for c in pod.spec.containers.iter().chain(sidecars) {
        let req = c.resources.as_ref().and_then(|r| r.requests.get(resource));
        match req.and_then(milli) {
            Some(v) => sum = sum.saturating_add(v),
            None => {
                return Err(format!(
                    "missing request for {resource} in container {} of Pod {}",
                    c.name, pod.metadata.name
                ))
            }
        }
    }
    Ok(sum)
}

/// `GetResourceUtilizationRatio`: (usage ratio, utilization in percent of the requests,
/// average raw value) over the pods that have both a sample and a request.
///
/// # Errors
/// `no metrics returned matched known pods` when no sample has a request.
pub fn get_resource_utilization_ratio(
    metrics: &BTreeMap<String, i64>,
    requests: &BTreeMap<String, i64>,
    target_utilization: i32,
) -> Result<(f64, i32, i64), String> {
    let (mut metrics_total, mut requests_total, mut n) = (0i64, 0i64, 0i64);
    for (name, v) in metrics {
        let Some(r) = requests.get(name) else {
            continue;
        };
        // Go's int64 arithmetic wraps (1.35 sums and scales unchecked), and `int32(...)`
        // truncates as `as i32` does.
        metrics_total = metrics_total.wrapping_add(*v);
        requests_total = requests_total.wrapping_add(*r);
        n += 1;
    }
    if requests_total == 0 {
        return Err("no metrics returned matched known pods".into());
    }
    let current = metrics_total.wrapping_mul(100).wrapping_div(requests_total) as i32;
    Ok((
        f64::from(current) / f64::from(target_utilization),
        current,
        metrics_total / n,
    ))
}

/// `GetMetricUsageRatio`: (usage ratio, average value) against an average-value target.
pub fn get_metric_usage_ratio(metrics: &BTreeMap<String, i64>, target_usage: i64) -> (f64, i64) {
    if metrics.is_empty() || target_usage == 0 {
        return (0.0, 0);
    }
    let total: i64 = metrics.values().fold(0i64, |a, v| a.wrapping_add(*v));
    let current = total / metrics.len() as i64;
    (current as f64 / target_usage as f64, current)
}

/// `Tolerances`: the usage-ratio band around 1.0 inside which no scaling happens, per
/// direction (HPAConfigurableTolerance, beta and on by default since 1.35: `behavior.scaleDown.
/// tolerance` / `behavior.scaleUp.tolerance`, else the controller's `--horizontal-pod-
/// autoscaler-tolerance`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerances {
    pub scale_down: f64,
    pub scale_up: f64,
}

impl Tolerances {
    /// The same tolerance both ways (the flag alone).
    pub fn uniform(t: f64) -> Self {
        Tolerances {
            scale_down: t,
            scale_up: t,
        }
    }

    /// `isWithin`: `1 − scaleDown ≤ ratio ≤ 1 + scaleUp`.
    ///
    /// Concrete example: with the default 0.1 both ways a ratio of exactly 1.1 is within (no
    /// scale), as upstream computes the bounds rather than `|1 − ratio|`.
    pub fn is_within(&self, usage_ratio: f64) -> bool {
        (1.0 - self.scale_down) <= usage_ratio && usage_ratio <= (1.0 + self.scale_up)
    }
}

impl std::fmt::Display for Tolerances {
    /// `[down:10.0%, up:5.0%]`, as upstream's `Tolerances.String`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "[down:{:.1}%, up:{:.1}%]",
            self.scale_down * 100.0,
            self.scale_up * 100.0
        )
    }
}

/// The calculator's tunables (kube-controller-manager flags).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReplicaCalculator {
    pub tolerance: f64,
    pub cpu_initialization_period: Duration,
    pub delay_of_initial_readiness_status: Duration,
    /// The `PodLevelResources` gate (beta, on by default since 1.34), read by
    /// [`calculate_pod_requests`].
    pub pod_level_resources: bool,
}

impl Default for ReplicaCalculator {
    fn default() -> Self {
        ReplicaCalculator {
            tolerance: DEFAULT_TOLERANCE,
            cpu_initialization_period: DEFAULT_CPU_INITIALIZATION_PERIOD,
            delay_of_initial_readiness_status: DEFAULT_INITIAL_READINESS_DELAY,
            pod_level_resources: true,
        }
    }
}

fn values(m: &PodMetricsInfo) -> BTreeMap<String, i64> {
    m.iter()
        .map(|(k, v)| (k.clone(), v.value))
        .collect_btree_map()
}

impl ReplicaCalculator {
    /// `GetResourceReplicas`: the replica count for a utilization target, with upstream's
    /// conservative treatment of missing and unready pods. Returns (replicas, utilization %,
    /// raw average).
    ///
    /// # Errors
    /// Upstream's messages: no pods, no metrics for targeted pods, missing requests.
    #[allow(clippy::too_many_arguments)] // upstream's parameters, plus the inputs it reads from listers
    pub fn get_resource_replicas(
        &self,
        current_replicas: i32,
        target_utilization: i32,
        resource: &str,
        tolerances: Tolerances,
        pods: &[&Pod],
        metrics: &PodMetricsInfo,
        now: Time,
    ) -> Result<(i32, i32, i64), String> {
        if pods.is_empty() {
            return Err("no pods returned by selector while calculating replica count".into());
        }
        let g = group_pods(
            pods,
            metrics,
            resource,
            self.cpu_initialization_period,
            self.delay_of_initial_readiness_status,
            now,
        );
        let mut m = values(metrics);
        // removeMetricsForPods(ignored), (unready)
        m.retain(|k, _| !g.ignored_pods.contains(k) && !g.unready_pods.contains(k));
        if m.is_empty() {
            return Err("did not receive metrics for targeted pods (pods might be unready)".into());
        }
        let requests = calculate_pod_requests(pods, resource, self.pod_level_resources)?;
        let (usage_ratio, utilization, raw) =
            get_resource_utilization_ratio(&m, &requests, target_utilization)?;
        let scale_up_with_unready = !g.unready_pods.is_empty() && usage_ratio > 1.0;
        if !scale_up_with_unready && g.missing_pods.is_empty() {
            if tolerances.is_within(usage_ratio) {
                return Ok((current_replicas, utilization, raw));
            }
            return Ok((
                (usage_ratio * g.ready_pod_count as f64).ceil() as i32,
                utilization,
                raw,
            ));
        }
        if !g.missing_pods.is_empty() {
            if usage_ratio < 1.0 {
                // On a scale-down, missing pods use 100 % of their request, or the target when
                // it is above 100 %.
                let fallback = i64::from(target_utilization.max(100));
                for p in &g.missing_pods {
                    m.insert(
                        p.clone(),
                        requests.get(p).copied().unwrap_or(0).wrapping_mul(fallback) / 100,
                    );
                }
            } else if usage_ratio > 1.0 {
                for p in &g.missing_pods {
                    m.insert(p.clone(), 0);
                }
            }
        }
        if scale_up_with_unready {
            for p in &g.unready_pods {
                m.insert(p.clone(), 0);
            }
        }
        let (new_usage_ratio, _, _) =
            get_resource_utilization_ratio(&m, &requests, target_utilization)?;
        if tolerances.is_within(new_usage_ratio)
            || (usage_ratio < 1.0 && new_usage_ratio > 1.0)
            || (usage_ratio > 1.0 && new_usage_ratio < 1.0)
        {
            return Ok((current_replicas, utilization, raw));
        }
        let new_replicas = (new_usage_ratio * m.len() as f64).ceil() as i32;
        if (new_usage_ratio < 1.0 && new_replicas > current_replicas)
            || (new_usage_ratio > 1.0 && new_replicas < current_replicas)
        {
            return Ok((current_replicas, utilization, raw));
        }
        Ok((new_replicas, utilization, raw))
    }

    /// `GetRawResourceReplicas` / `calcPlainMetricReplicas`: the replica count for an
    /// average-value target (milli-units). Returns (replicas, average usage).
    ///
    /// # Errors
    /// As [`ReplicaCalculator::get_resource_replicas`].
    #[allow(clippy::too_many_arguments)] // upstream's parameters, plus the inputs it reads from listers
    pub fn get_raw_resource_replicas(
        &self,
        current_replicas: i32,
        target_usage: i64,
        resource: &str,
        tolerances: Tolerances,
        pods: &[&Pod],
        metrics: &PodMetricsInfo,
        now: Time,
    ) -> Result<(i32, i64), String> {
        if pods.is_empty() {
            return Err("no pods returned by selector while calculating replica count".into());
        }
        let g = group_pods(
            pods,
            metrics,
            resource,
            self.cpu_initialization_period,
            self.delay_of_initial_readiness_status,
            now,
        );
        let mut m = values(metrics);
        m.retain(|k, _| !g.ignored_pods.contains(k) && !g.unready_pods.contains(k));
        if m.is_empty() {
            return Err("did not receive metrics for targeted pods (pods might be unready)".into());
        }
        let (usage_ratio, usage) = get_metric_usage_ratio(&m, target_usage);
        let scale_up_with_unready = !g.unready_pods.is_empty() && usage_ratio > 1.0;
        if !scale_up_with_unready && g.missing_pods.is_empty() {
            if tolerances.is_within(usage_ratio) {
                return Ok((current_replicas, usage));
            }
            return Ok((
                (usage_ratio * g.ready_pod_count as f64).ceil() as i32,
                usage,
            ));
        }
        if !g.missing_pods.is_empty() {
            // Scale-down: missing pods use exactly the target; scale-up: nothing. (A ratio of
            // exactly 1 leaves them out.)
            let v = if usage_ratio < 1.0 {
                Some(target_usage)
            } else if usage_ratio > 1.0 {
                Some(0)
            } else {
                None
            };
            if let Some(v) = v {
                for p in &g.missing_pods {
                    m.insert(p.clone(), v);
                }
            }
        }
        if scale_up_with_unready {
            for p in &g.unready_pods {
                m.insert(p.clone(), 0);
            }
        }
        let (new_usage_ratio, _) = get_metric_usage_ratio(&m, target_usage);
        if tolerances.is_within(new_usage_ratio)
            || (usage_ratio < 1.0 && new_usage_ratio > 1.0)
            || (usage_ratio > 1.0 && new_usage_ratio < 1.0)
        {
            return Ok((current_replicas, usage));
        }
        let new_replicas = (new_usage_ratio * m.len() as f64).ceil() as i32;
        if (new_usage_ratio < 1.0 && new_replicas > current_replicas)
            || (new_usage_ratio > 1.0 && new_replicas < current_replicas)
        {
            // The number of metrics would turn the scale the other way.
            return Ok((current_replicas, usage));
        }
        Ok((new_replicas, usage))
    }
}

#[cfg(test)]
mod tests;
