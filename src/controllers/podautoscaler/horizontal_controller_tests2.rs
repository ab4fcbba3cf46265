//! Further controller-level ports of `pkg/controller/podautoscaler/horizontal_test.go`, on the
//! `TestCase` harness of the parent module.
//!
//! In the two "one metric empty" tests upstream's fake external metrics client fails ("something
//! went wrong"); kubeplay serves no external metrics API, so the External metric fails the same
//! way (FailedGetExternalMetric), only with another message, which upstream does not compare.

use super::*;

fn external_qps(milli_value: i64) -> MetricSpec {
    MetricSpec {
        type_: "External".into(),
        external: Some(serde_json::json!({
            "metric": {"name": "qps", "selector": {}},
            "target": {"type": "Value", "value": milli_quantity(milli_value).0},
        })),
        ..Default::default()
    }
}

// Upstream: TestScaleUpOneMetricEmpty: the CPU metric (40 % against 30 %) scales 3 → 4 while
// the External metric fails; the scale goes ahead with the statusOk conditions, and
// reconcileAutoscaler still returns the metric's error
// (expectedReportedReconciliationErrorLabel: ErrorLabelInternal).
#[test]
fn scale_up_one_metric_empty() {
    TestCase {
        name: "TestScaleUpOneMetricEmpty",
        min_replicas: 2,
        max_replicas: 6,
        spec_replicas: 3,
        status_replicas: 3,
        expected_desired_replicas: 4,
        cpu_target: 30,
        // verifyCPUCurrent: computeCPUCurrent = 100 * 1200 / 3000.
        cpu_current: Some(40),
        metrics_target: vec![external_qps(100)],
        reported_levels: vec![300, 400, 500],
        reported_cpu_requests: one_core(3),
        expect_err: Some(true),
        ..Default::default()
    }
    .run_test();
}

// Upstream: TestNoScaleDownOneMetricEmpty: the CPU metric alone would scale 5 → 3, but with the
// External metric failing computeReplicasForMetrics refuses to scale down: nothing changes and
// ScalingActive is False with FailedGetExternalMetric.
#[test]
fn no_scale_down_one_metric_empty() {
    let run = TestCase {
        name: "TestNoScaleDownOneMetricEmpty",
        min_replicas: 2,
        max_replicas: 6,
        spec_replicas: 5,
        status_replicas: 5,
        expected_desired_replicas: 5,
        cpu_target: 50,
        metrics_target: vec![external_qps(1000)],
        reported_levels: vec![100, 300, 500, 250, 250],
        reported_cpu_requests: one_core(5),
        recommendations: Some(vec![]),
        expected_conditions: Some(vec![
            (ABLE_TO_SCALE, "True", "SucceededGetScale"),
            (SCALING_ACTIVE, "False", "FailedGetExternalMetric"),
        ]),
        expect_err: Some(true),
        ..Default::default()
    }
    .run_test();
    // No rescale was attempted: the failure is reported, not a scale change.
    assert!(
        run.api
            .events
            .iter()
            .any(|e| e.reason == "FailedComputeMetricsReplicas"),
        "{:?}",
        run.api.events
    );
    assert!(!run
        .actions
        .iter()
        .any(|a| a.verb == "update" && a.replicas.is_some()));
}

// Upstream: TestMultipleHPAs: 1000 HPAs (dummy-hpa-<i> on Deployment dummy-target-<i>, one pod
// each using 500m of 1 core against a 10 % target, scale-up rules of 100 pods / 60 s and
// scale-down rules of 2 pods or 1 % / 60 s with a 300 s window, scale-up and scale-down event
// histories spread over the last 120 s) are all processed: each one's status is written. Here
// the controller's queue is driven one sync period forward (upstream's resync period is 100 ms;
// the fixed-interval limiter delays the first sync by it).
#[test]
fn multiple_hpas() {
    const HPA_COUNT: usize = 1000;
    const NSP: &str = "dummy-namespace";
    let now = start();
    let mut api = ApiServer::new(1, now);
    let mut metrics = BTreeMap::new();
    for i in 0..HPA_COUNT {
        let target = format!("dummy-target-{i}");
        let labels: Labels = [("name".to_string(), target.clone())].into();
        let template = crate::api::PodTemplateSpec {
            metadata: ObjectMeta {
                labels: labels.clone().into(),
                ..Default::default()
            },
            spec: std::sync::Arc::new(crate::api::PodSpec {
                containers: vec![Container {
                    name: "c".into(),
                    image: "img".into(),
                    ..Default::default()
                }],
                ..Default::default()
            }),
        };
        let mut d = Deployment {
            metadata: ObjectMeta {
                name: target.clone(),
                namespace: NSP.into(),
                ..Default::default()
            },
            ..Default::default()
        };
        d.spec.replicas = Some(1);
        d.spec.selector = Some(LabelSelector::from_labels(&labels));
        d.spec.template = std::sync::Arc::new(template);
        d.status.replicas = 1;
        api.load(d.into_object()).expect("deployment loads");

        let container = |name: &str| Container {
            name: name.into(),
            image: "img".into(),
            resources: Some(ResourceRequirements {
                requests: [("cpu".to_string(), milli_quantity(500))].into(),
                ..Default::default()
            }),
            ..Default::default()
        };
        let pod_name = format!("{target}-0");
        let mut p = Pod {
            metadata: ObjectMeta {
                name: pod_name.clone(),
                namespace: NSP.into(),
                labels: labels.clone().into(),
                ..Default::default()
            },
            ..Default::default()
        };
        p.spec_mut().containers = vec![container("container1"), container("container2")];
        p.status.phase = "Running".into();
        p.status.conditions = vec![PodCondition {
            type_: "Ready".into(),
            status: "True".into(),
            ..Default::default()
        }];
        p.status.start_time = Some(now - Duration::from_secs(600));
        api.load(Object::Pod(p)).expect("pod loads");
        // container1 uses 200m, container2 300m.
        metrics.insert(
            pod_name,
            PodMetric {
                value: 500,
                timestamp: now,
                window: Duration::from_secs(60),
            },
        );

        let mut up = generate_scaling_rules(100, 60, 0, 0, 0);
        let mut down = generate_scaling_rules(2, 60, 1, 60, 300);
        up = crate::api::autoscaling::copy_hpa_scaling_rules(
            Some(&up),
            crate::api::autoscaling::default_scale_up_rules(),
        );
        down = crate::api::autoscaling::copy_hpa_scaling_rules(
            Some(&down),
            crate::api::autoscaling::default_scale_down_rules(),
        );
        let h = HorizontalPodAutoscaler {
            api_version: "autoscaling/v2".into(),
            kind: "HorizontalPodAutoscaler".into(),
            metadata: ObjectMeta {
                name: format!("dummy-hpa-{i}"),
                namespace: NSP.into(),
                ..Default::default()
            },
            spec: HorizontalPodAutoscalerSpec {
                scale_target_ref: CrossVersionObjectReference {
                    kind: "Deployment".into(),
                    name: target,
                    api_version: "apps/v1".into(),
                },
                min_replicas: Some(1),
                max_replicas: 10,
                metrics: vec![MetricSpec {
                    type_: "Resource".into(),
                    resource: Some(ResourceMetricSource {
                        name: "cpu".into(),
                        target: MetricTarget {
                            type_: "Utilization".into(),
                            average_utilization: Some(10),
                            ..Default::default()
                        },
                    }),
                    ..Default::default()
                }],
                behavior: Some(HorizontalPodAutoscalerBehavior {
                    scale_up: Some(up),
                    scale_down: Some(down),
                }),
            },
            status: HorizontalPodAutoscalerStatus {
                current_replicas: 1,
                desired_replicas: 5,
                last_scale_time: Some(now),
                ..Default::default()
            },
        };
        api.load(h.into_object()).expect("hpa loads");
    }

    let mut ctrl = HorizontalController::new();
    ctrl.sync_period = Duration::from_millis(100);
    ctrl.replica_calc = ReplicaCalculator {
        tolerance: 0.1,
        cpu_initialization_period: Duration::from_secs(120),
        delay_of_initial_readiness_status: Duration::from_secs(10),
        ..Default::default()
    };
    ctrl.fake_metrics = Some([("cpu".to_string(), metrics)].into());
    let mut queue = WorkQueue::new();
    ctrl.resync_all_at(&api.store, &mut queue, now);
    for i in 0..HPA_COUNT {
        let key = format!("{NSP}/dummy-hpa-{i}");
        ctrl.scale_up_events
            .insert(key.clone(), uniform_events(&[8, 12, 9, 11], 120, now));
        ctrl.scale_down_events
            .insert(key, uniform_events(&[10, 10, 10], 120, now));
    }
    let later = now + ctrl.sync_period;
    api.now = later;
    queue.promote_due(later);
    let gates = FeatureGates::default();
    let mut world = World::default();
    let mut actions = vec![];
    while let Some(key) = queue.pop() {
        let mut ctx = Ctx {
            api: &mut api,
            gates: &gates,
            queue: &mut WorkQueue::new(),
            world: &mut world,
            actions: &mut actions,
            component: COMPONENT,
        };
        ctrl.sync(&key, &mut ctx).expect("sync");
    }
    let processed: std::collections::BTreeSet<&str> = actions
        .iter()
        .filter(|a| a.verb == "update-status" && a.kind == "HorizontalPodAutoscaler")
        .inspect(|a| assert_eq!(a.namespace, NSP, "the HPA namespace should be as expected"))
        .map(|a| a.name.as_str())
        .collect();
    assert_eq!(processed.len(), HPA_COUNT, "Expected to process all HPAs");
}

/// `generateEventsUniformDistribution`.
fn uniform_events(raw: &[i32], period: i64, now: Time) -> Vec<TimestampedScaleEvent> {
    let seg = period as f64 / raw.len() as f64;
    raw.iter()
        .enumerate()
        .map(|(i, c)| TimestampedScaleEvent {
            replica_change: *c,
            timestamp: now
                - Duration::from_secs((period as f64 - seg * (i + 1) as f64 + seg / 2.0) as i64),
            outdated: false,
        })
        .collect()
}

// Upstream: TestHPASelectorStorePutIfPresent (hpa_selector_store_test.go, from after 1.35; the
// same rule as 1.35's validateAndParseSelector: "Update HPA selector only if the HPA was
// registered in enqueueHPA"): a reconcile of an HPA the informer never registered (or that was
// deleted meanwhile) does not add it back, while a registered one gets its target's selector.
#[test]
fn reconcile_records_the_selector_only_if_registered() {
    let tc = TestCase {
        name: "PutIfPresent",
        cpu_target: 30,
        reported_levels: vec![300, 500, 700],
        reported_cpu_requests: one_core(3),
        ..Default::default()
    };
    let now = start();
    let mut api = ApiServer::new(1, now);
    api.load(tc.target()).expect("target loads");
    for p in tc.pods(now) {
        api.load(Object::Pod(p)).expect("pod loads");
    }
    let stored = api.load(tc.hpa().into_object()).expect("hpa loads");
    let Object::HorizontalPodAutoscaler(hpa) = stored else {
        unreachable!()
    };
    let gates = FeatureGates::default();
    let mut world = World::default();
    let mut actions = vec![];
    let mut queue = WorkQueue::new();
    let mut ctrl = HorizontalController::new();
    ctrl.fake_metrics = Some(tc.metrics(now));
    let mut reconcile = |ctrl: &mut HorizontalController, api: &mut ApiServer| {
        let mut ctx = Ctx {
            api,
            gates: &gates,
            queue: &mut queue,
            world: &mut world,
            actions: &mut actions,
            component: COMPONENT,
        };
        let _ = ctrl.reconcile_autoscaler(&hpa, HPA_KEY, &mut ctx);
    };
    reconcile(&mut ctrl, &mut api);
    assert!(
        !ctrl.hpa_selectors.contains_key(HPA_KEY),
        "an unregistered HPA is not added by its reconcile"
    );
    ctrl.hpa_selectors.insert(HPA_KEY.into(), None);
    reconcile(&mut ctrl, &mut api);
    let sel = ctrl.hpa_selectors[HPA_KEY]
        .as_ref()
        .expect("the registered HPA's selector is recorded");
    assert!(sel.matches(&TestCase::labels()));
}
