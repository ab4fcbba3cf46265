//! The HorizontalPodAutoscaler through the whole simulation: the built-in scenarios' timing
//! against the stabilization window and the behavior policies, and the v1 manifest gotcha.

use kubeplay::api::autoscaling::HorizontalPodAutoscaler;
use kubeplay::api::{Deployment, Duration, ReplicaSet, Time};
use kubeplay::scenario::{builtin, Scenario};
use kubeplay::sim::Simulation;

fn build(name: &str) -> Simulation {
    Scenario::parse(builtin::get(name).unwrap())
        .unwrap()
        .build()
        .unwrap()
}

/// (seconds since start, new size) of every SuccessfulRescale event.
fn rescales(sim: &Simulation) -> Vec<(i64, i32)> {
    sim.api
        .events
        .iter()
        .filter(|e| e.reason == "SuccessfulRescale")
        .map(|e| {
            let n = e
                .message
                .strip_prefix("New size: ")
                .and_then(|m| m.split(';').next())
                .and_then(|n| n.parse().ok())
                .unwrap();
            ((e.time - sim.start).as_millis() / 1000, n)
        })
        .collect()
}

fn at(sim: &Simulation, secs: i64) -> Time {
    sim.start + Duration::from_secs(secs)
}

#[test]
fn frontend_scales_3_to_10_and_back_after_the_stabilization_window() {
    let mut sim = build("hpa-frontend");
    // The HPA is created at 1m and synced every 15 s from 1m15s; the load steps up at 3m.
    sim.run_until(at(&sim, 179)).unwrap();
    let rs = |sim: &Simulation| {
        sim.api
            .store
            .get::<ReplicaSet>("default", "frontend")
            .unwrap()
            .spec
            .replicas
    };
    assert_eq!(rs(&sim), Some(3));
    sim.run_until(at(&sim, 3 * 60 + 15)).unwrap();
    assert_eq!(rs(&sim), Some(10));
    // The load drops at 12m; the last high recommendation was made at 11m45s. The default
    // 300 s window keeps 10 replicas until that recommendation is older than the window.
    sim.run_until(at(&sim, 16 * 60 + 59)).unwrap();
    assert_eq!(
        rs(&sim),
        Some(10),
        "still stabilized just before the window ends"
    );
    sim.run_until(at(&sim, 18 * 60)).unwrap();
    assert_eq!(rs(&sim), Some(3));
    // Legacy path (no behavior): at most max(2 × current, 4) per step.
    assert_eq!(rescales(&sim), vec![(180, 6), (195, 10), (1020, 3)]);
    let scale_down = rescales(&sim)[2].0;
    assert!(scale_down - 12 * 60 >= 300, "no earlier than the window");
    let h = sim
        .api
        .store
        .get::<HorizontalPodAutoscaler>("default", "frontend")
        .unwrap();
    let active = h.condition("ScalingActive").unwrap();
    assert_eq!(active.reason, "ValidMetricFound");
    assert_eq!(h.status.desired_replicas, 3);
}

#[test]
fn behavior_policies_limit_the_rate_exactly() {
    let mut sim = build("hpa-behavior-policies");
    sim.run_until(at(&sim, 17 * 60)).unwrap();
    let r = rescales(&sim);
    // Up: 2 pods per 60 s from 2m (the load step), one step a minute, to maxReplicas.
    let ups: Vec<(i64, i32)> = (0..9).map(|i| (120 + 60 * i, 4 + 2 * i as i32)).collect();
    assert_eq!(r[..9], ups[..]);
    // Down: the load drops at 12m; the 60 s window lets go at 12m45s (the last high sample was
    // at 11m45s); then at most 50 % per 60 s: 20 → 10 → 5 → 2 (minReplicas).
    assert_eq!(r[9..], [(765, 10), (825, 5), (885, 2)]);
    for w in r.windows(2) {
        assert!(w[1].0 - w[0].0 >= 60, "one change per policy period: {r:?}");
    }
    let d = sim.api.store.get::<Deployment>("default", "web").unwrap();
    assert_eq!(d.spec.replicas, Some(2));
}

#[test]
fn v1_manifest_without_api_version_cannot_get_the_scale() {
    // The ReplicaSet docs' hpa-rs.yaml names the target without an apiVersion: the HPA
    // controller looks the kind up in the core group and fails, as a real cluster does.
    let mut sim = build("frontend");
    let hpa = "apiVersion: autoscaling/v1\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: frontend-scaler\nspec:\n  scaleTargetRef:\n    kind: ReplicaSet\n    name: frontend\n  minReplicas: 3\n  maxReplicas: 10\n  targetCPUUtilizationPercentage: 50\n";
    assert_eq!(
        kubeplay::kubectl::execute_with_input(&mut sim, "apply -f -", Some(hpa)).unwrap(),
        "horizontalpodautoscaler.autoscaling/frontend-scaler created"
    );
    sim.run_for(Duration::from_secs(20)).unwrap();
    let h = sim
        .api
        .store
        .get::<HorizontalPodAutoscaler>("default", "frontend-scaler")
        .unwrap();
    let c = h.condition("AbleToScale").unwrap();
    assert_eq!(
        (c.status.as_str(), c.reason.as_str()),
        ("False", "FailedGetScale")
    );
    assert_eq!(
        c.message,
        "the HPA controller was unable to get the target's current scale: no matches for kind \"ReplicaSet\" in group \"\""
    );
    let out = kubeplay::kubectl::execute(&mut sim, "get hpa").unwrap();
    assert!(
        out.contains("ReplicaSet/frontend   cpu: <unknown>/50%"),
        "{out}"
    );
}

#[test]
fn pods_without_load_have_no_metrics() {
    // An HPA on a workload no load entry covers: metrics-server has nothing to report.
    let mut sim = build("frontend");
    kubeplay::kubectl::execute(&mut sim, "autoscale rs frontend --max=5 --cpu-percent=50").unwrap();
    sim.run_for(Duration::from_secs(20)).unwrap();
    let h = sim
        .api
        .store
        .get::<HorizontalPodAutoscaler>("default", "frontend")
        .unwrap();
    let c = h.condition("ScalingActive").unwrap();
    assert_eq!(c.reason, "FailedGetResourceMetric");
    assert_eq!(
        c.message,
        "the HPA was unable to compute the replica count: failed to get cpu utilization: unable to get metrics for resource cpu: no metrics returned from resource metrics API"
    );
    let evs: Vec<&str> = sim
        .api
        .events
        .iter()
        .filter(|e| e.kind == "HorizontalPodAutoscaler")
        .map(|e| e.reason.as_str())
        .collect();
    assert_eq!(
        evs,
        ["FailedGetResourceMetric", "FailedComputeMetricsReplicas"]
    );
}

#[test]
fn controller_restart_forgets_recommendations() {
    // A restarted kube-controller-manager has no history: stabilization starts over from the
    // current replicas (recordInitialRecommendation).
    let mut sim = build("hpa-frontend");
    sim.run_until(at(&sim, 12 * 60 + 30)).unwrap();
    sim.set_controller_manager(false);
    sim.set_controller_manager(true);
    sim.run_until(at(&sim, 13 * 60)).unwrap();
    let rs = sim
        .api
        .store
        .get::<ReplicaSet>("default", "frontend")
        .unwrap();
    assert_eq!(
        rs.spec.replicas,
        Some(10),
        "the initial recommendation is the current count"
    );
    sim.run_until(at(&sim, 18 * 60 + 31)).unwrap();
    let rs = sim
        .api
        .store
        .get::<ReplicaSet>("default", "frontend")
        .unwrap();
    assert_eq!(rs.spec.replicas, Some(3));
}

#[test]
fn restarted_controller_first_syncs_one_resync_period_later() {
    // The informer's initial list calls enqueueHPA, which uses AddRateLimited on a queue whose
    // limiter is a fixed 15 s interval: after a kube-controller-manager restart, no HPA is
    // reconciled before one sync period has passed.
    use kubeplay::controllers::podautoscaler::HorizontalController;
    let mut sim = build("hpa-frontend");
    sim.run_until(at(&sim, 10 * 60 + 7)).unwrap();
    sim.set_controller_manager(false);
    sim.set_controller_manager(true);
    let synced = |sim: &Simulation| {
        sim.controller::<HorizontalController>()
            .unwrap()
            .recommendations
            .contains_key("default/frontend")
    };
    assert!(!synced(&sim), "a restart forgets the recommendations");
    sim.run_until(at(&sim, 10 * 60 + 7 + 14)).unwrap();
    assert!(!synced(&sim), "no sync within the first resync period");
    sim.run_until(at(&sim, 10 * 60 + 7 + 15)).unwrap();
    assert!(synced(&sim), "the first sync comes 15 s after the restart");
}

#[test]
fn kubectl_autoscale_cpu_and_memory_targets_reach_the_controller() {
    // kubectl 1.34's --cpu / --memory: an autoscaling/v2 HPA with an AverageValue cpu metric and
    // a Utilization memory metric. Without load the controller reports both as unavailable.
    let mut sim = build("frontend");
    assert_eq!(
        kubeplay::kubectl::execute(
            &mut sim,
            "autoscale rs frontend --max=5 --cpu=500m --memory=60%"
        )
        .unwrap(),
        "horizontalpodautoscaler.autoscaling/frontend autoscaled"
    );
    sim.run_for(Duration::from_secs(20)).unwrap();
    let h = sim
        .api
        .store
        .get::<HorizontalPodAutoscaler>("default", "frontend")
        .unwrap();
    let c = h.condition("ScalingActive").unwrap();
    assert_eq!(c.reason, "FailedGetResourceMetric");
    assert_eq!(
        c.message,
        "the HPA was unable to compute the replica count: failed to get cpu usage: unable to get metrics for resource cpu: no metrics returned from resource metrics API"
    );
    let out = kubeplay::kubectl::execute(&mut sim, "get hpa").unwrap();
    assert!(
        out.contains(
            "ReplicaSet/frontend   cpu: <unknown>/500m, memory: <unknown>/60%   1         5"
        ),
        "{out}"
    );
    let evs: Vec<&str> = sim
        .api
        .events
        .iter()
        .filter(|e| e.kind == "HorizontalPodAutoscaler")
        .map(|e| e.reason.as_str())
        .collect();
    assert_eq!(
        evs,
        [
            "FailedGetResourceMetric",
            "FailedGetResourceMetric",
            "FailedComputeMetricsReplicas"
        ]
    );
}
