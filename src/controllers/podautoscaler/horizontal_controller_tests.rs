//! Controller-level ports of `pkg/controller/podautoscaler/horizontal_test.go`: upstream's
//! `testCase` driven through [`HorizontalController::sync`] against the simulated API server,
//! with a fake resource metrics source (`HorizontalController::fake_metrics`) in place of the
//! fake metrics clientset. Upstream compares conditions without their messages; the rows here
//! assert type, status and reason, and the messages where the upstream test states them.
//!
//! Upstream's `init()` sets `scaleUpLimitFactor = 8`; kubeplay keeps the real factor (2), so
//! the rows are the ones whose result the factor does not reach (noted where it matters).

use super::*;
use crate::api::autoscaling::{
    CrossVersionObjectReference, HorizontalPodAutoscalerBehavior, HorizontalPodAutoscalerSpec,
    HorizontalPodAutoscalerStatus, MetricTarget, ResourceMetricSource,
};
use crate::api::{
    Container, Deployment, LabelSelector, Labels, ObjectMeta, PodCondition, ReplicaSet,
    ReplicationController, ResourceRequirements,
};
use crate::controllers::Action;
use crate::features::FeatureGates;
use crate::scenario::load::PodMetric;
use crate::store::apiserver::ApiServer;
use crate::world::World;

const NS: &str = "test-namespace";
const HPA_KEY: &str = "test-namespace/test-hpa";

fn start() -> Time {
    Time::parse_rfc3339("2025-01-01T00:00:00Z").unwrap()
}

/// `hotCPUCreationTime` (now) and `coolCPUCreationTime` (3 minutes ago).
#[derive(Clone, Copy)]
enum StartTime {
    Hot,
    Cool,
}

type Cond = (&'static str, &'static str, &'static str);

/// Upstream's `statusOk`, with overrides (`statusOkWithOverrides`).
fn status_ok(overrides: &[Cond]) -> Vec<Cond> {
    let mut v = vec![
        (ABLE_TO_SCALE, "True", "SucceededRescale"),
        (SCALING_ACTIVE, "True", "ValidMetricFound"),
        (SCALING_LIMITED, "False", "DesiredWithinRange"),
    ];
    for o in overrides {
        match v.iter_mut().find(|c| c.0 == o.0) {
            Some(c) => *c = *o,
            None => v.push(*o),
        }
    }
    v
}

/// Upstream's `testCase` (the fields kubeplay can simulate).
#[derive(Clone)]
struct TestCase {
    name: &'static str,
    min_replicas: i32,
    max_replicas: i32,
    spec_replicas: i32,
    status_replicas: i32,
    scale_up_rules: Option<HpaScalingRules>,
    scale_down_rules: Option<HpaScalingRules>,
    cpu_target: i32,
    /// Expected `status.currentMetrics[cpu].averageUtilization` (`verifyCPUCurrent`).
    cpu_current: Option<i32>,
    reported_levels: Vec<u64>,
    /// In cores; `None` means `statusReplicas` pods requesting 1 core each.
    reported_cpu_requests: Option<Vec<&'static str>>,
    reported_pod_readiness: Vec<&'static str>,
    reported_pod_start_time: Vec<StartTime>,
    reported_pod_phase: Vec<&'static str>,
    reported_pod_deletion_timestamp: Vec<bool>,
    metrics_target: Vec<MetricSpec>,
    expected_desired_replicas: i32,
    /// `None`: `statusOk`.
    expected_conditions: Option<Vec<Cond>>,
    /// (kind, apiVersion, name) of the target; default `ReplicationController` `v1` `test-rc`.
    resource: (&'static str, &'static str, &'static str),
    last_scale_time: Option<Time>,
    /// (recommendation, seconds before now).
    recommendations: Option<Vec<(i32, i64)>>,
    /// Events to expect (reason, message), checked when `Some`.
    expected_events: Option<Vec<(&'static str, String)>>,
    /// Upstream's `verifyEvents`: only SuccessfulRescale may be recorded, and only on a change.
    verify_events: bool,
    /// The target does not exist (`scale.Get` fails).
    no_target: bool,
    /// Rewrites the stored ReplicationController behind the API server's validation (an
    /// empty or unparsable selector, an object whose update is refused).
    put_rc: Option<fn(&mut ReplicationController)>,
    /// Selectors of other HPAs registered in `hpaSelectors` (name, selector labels).
    hpa_selectors: Vec<(&'static str, &'static [(&'static str, &'static str)])>,
    /// Extra labels on every pod.
    pod_labels: &'static [(&'static str, &'static str)],
    /// The HPA's status before the sync (default: current = desired = spec replicas).
    initial_status: Option<HorizontalPodAutoscalerStatus>,
    /// The HPA's status must not be written (TestAvoidUnnecessaryUpdates).
    expect_no_status_update: bool,
    /// Whether reconcileAutoscaler returns an error (upstream's
    /// `expectedReportedReconciliationErrorLabel`), when the conditions alone do not tell.
    expect_err: Option<bool>,
}

impl Default for TestCase {
    fn default() -> Self {
        TestCase {
            name: "",
            min_replicas: 2,
            max_replicas: 6,
            spec_replicas: 3,
            status_replicas: 3,
            scale_up_rules: None,
            scale_down_rules: None,
            cpu_target: 0,
            cpu_current: None,
            reported_levels: vec![],
            reported_cpu_requests: None,
            reported_pod_readiness: vec![],
            reported_pod_start_time: vec![],
            reported_pod_phase: vec![],
            reported_pod_deletion_timestamp: vec![],
            metrics_target: vec![],
            expected_desired_replicas: 0,
            expected_conditions: None,
            resource: ("ReplicationController", "v1", "test-rc"),
            last_scale_time: None,
            recommendations: None,
            expected_events: None,
            verify_events: false,
            no_target: false,
            put_rc: None,
            hpa_selectors: vec![],
            pod_labels: &[],
            initial_status: None,
            expect_no_status_update: false,
            expect_err: None,
        }
    }
}

fn cores_milli(q: &str) -> i64 {
    crate::api::validation::quantity::parse_quantity(q)
        .unwrap()
        .milli_value() as i64
}

struct Run {
    api: ApiServer,
    actions: Vec<Action>,
    err: Result<(), String>,
}

impl TestCase {
    fn labels() -> Labels {
        [("name".to_string(), "test-pod".to_string())].into()
    }

    fn pod_labels(&self) -> Labels {
        let mut l = Self::labels();
        for (k, v) in self.pod_labels {
            l.insert(k.to_string(), v.to_string());
        }
        l
    }

    fn hpa(&self) -> HorizontalPodAutoscaler {
        let behavior =
            (self.scale_up_rules.is_some() || self.scale_down_rules.is_some()).then(|| {
                HorizontalPodAutoscalerBehavior {
                    scale_up: self.scale_up_rules.clone(),
                    scale_down: self.scale_down_rules.clone(),
                }
            });
        let mut metrics = vec![];
        if self.cpu_target > 0 {
            metrics.push(MetricSpec {
                type_: "Resource".into(),
                resource: Some(ResourceMetricSource {
                    name: "cpu".into(),
                    target: MetricTarget {
                        type_: "Utilization".into(),
                        average_utilization: Some(self.cpu_target),
                        ..Default::default()
                    },
                }),
                ..Default::default()
            });
        }
        metrics.extend(self.metrics_target.iter().cloned());
        if metrics.is_empty() {
            // "manually add in the defaulting logic": a cpu metric without a target.
            metrics.push(MetricSpec {
                type_: "Resource".into(),
                resource: Some(ResourceMetricSource {
                    name: "cpu".into(),
                    target: MetricTarget::default(),
                }),
                ..Default::default()
            });
        }
        let mut h = HorizontalPodAutoscaler {
            api_version: "autoscaling/v2".into(),
            kind: "HorizontalPodAutoscaler".into(),
            metadata: ObjectMeta {
                name: "test-hpa".into(),
                namespace: NS.into(),
                ..Default::default()
            },
            spec: HorizontalPodAutoscalerSpec {
                scale_target_ref: CrossVersionObjectReference {
                    kind: self.resource.0.into(),
                    name: self.resource.2.into(),
                    api_version: self.resource.1.into(),
                },
                min_replicas: Some(self.min_replicas),
                max_replicas: self.max_replicas,
                metrics,
                behavior,
            },
            status: self
                .initial_status
                .clone()
                .unwrap_or(HorizontalPodAutoscalerStatus {
                    current_replicas: self.spec_replicas,
                    desired_replicas: self.spec_replicas,
                    last_scale_time: self.last_scale_time,
                    ..Default::default()
                }),
        };
        // SetDefaults_HorizontalPodAutoscalerBehavior
        if let Some(b) = &mut h.spec.behavior {
            b.scale_up = Some(crate::api::autoscaling::copy_hpa_scaling_rules(
                b.scale_up.as_ref(),
                crate::api::autoscaling::default_scale_up_rules(),
            ));
            b.scale_down = Some(crate::api::autoscaling::copy_hpa_scaling_rules(
                b.scale_down.as_ref(),
                crate::api::autoscaling::default_scale_down_rules(),
            ));
        }
        h
    }

    fn target(&self) -> Object {
        let sel = LabelSelector::from_labels(&Self::labels());
        let template = crate::api::PodTemplateSpec {
            metadata: ObjectMeta {
                labels: Self::labels().into(),
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
        let meta = ObjectMeta {
            name: self.resource.2.into(),
            namespace: NS.into(),
            ..Default::default()
        };
        match self.resource.0 {
            "Deployment" => {
                let mut d = Deployment {
                    metadata: meta,
                    ..Default::default()
                };
                d.spec.replicas = Some(self.spec_replicas);
                d.spec.selector = Some(sel);
                d.spec.template = std::sync::Arc::new(template);
                d.status.replicas = self.status_replicas;
                d.into_object()
            }
            "ReplicaSet" => {
                let mut r = ReplicaSet {
                    metadata: meta,
                    ..Default::default()
                };
                r.spec.replicas = Some(self.spec_replicas);
                r.spec.selector = Some(sel);
                r.spec.template = std::sync::Arc::new(template);
                r.status.replicas = self.status_replicas;
                r.into_object()
            }
            _ => {
                let mut r = ReplicationController {
                    metadata: meta,
                    ..Default::default()
                };
                r.spec.replicas = Some(self.spec_replicas);
                r.spec.selector = Self::labels();
                r.spec.template = Some(template);
                r.status.replicas = self.status_replicas;
                r.into_object()
            }
        }
    }

    fn pods(&self, now: Time) -> Vec<Pod> {
        let requests: Vec<&str> = match &self.reported_cpu_requests {
            Some(r) => r.clone(),
            None => vec!["1.0"; self.status_replicas as usize],
        };
        let mut out = vec![];
        for (i, req) in requests.iter().enumerate() {
            let readiness = self
                .reported_pod_readiness
                .get(i)
                .copied()
                .unwrap_or("True");
            let start = match self.reported_pod_start_time.get(i).copied() {
                Some(StartTime::Hot) => now,
                Some(StartTime::Cool) => now - Duration::from_secs(180),
                // Upstream's zero metav1.Time: long before the CPU initialization period.
                None => Time(0),
            };
            let phase = self.reported_pod_phase.get(i).copied().unwrap_or("Running");
            let half = milli_quantity(cores_milli(req) / 2);
            let container = |name: &str| Container {
                name: name.into(),
                image: "img".into(),
                resources: Some(ResourceRequirements {
                    requests: [("cpu".to_string(), half.clone())].into(),
                    ..Default::default()
                }),
                ..Default::default()
            };
            let mut p = Pod {
                metadata: ObjectMeta {
                    name: format!("test-pod-{i}"),
                    namespace: NS.into(),
                    labels: self.pod_labels().into(),
                    ..Default::default()
                },
                ..Default::default()
            };
            p.spec_mut().containers = vec![container("container1"), container("container2")];
            p.status.phase = phase.into();
            p.status.conditions = vec![PodCondition {
                type_: "Ready".into(),
                status: readiness.into(),
                last_transition_time: Some(start),
                ..Default::default()
            }];
            p.status.start_time = Some(start);
            if self
                .reported_pod_deletion_timestamp
                .get(i)
                .copied()
                .unwrap_or(false)
            {
                p.metadata.deletion_timestamp = Some(now);
            }
            out.push(p);
        }
        out
    }

    /// The fake metrics clientset: each level split over the two containers (`cpu/2` each).
    fn metrics(
        &self,
        now: Time,
    ) -> BTreeMap<String, super::super::replica_calculator::PodMetricsInfo> {
        let cpu = self
            .reported_levels
            .iter()
            .enumerate()
            .map(|(i, l)| {
                (
                    format!("test-pod-{i}"),
                    PodMetric {
                        value: (*l as i64 / 2) * 2,
                        timestamp: now,
                        window: Duration::from_secs(60),
                    },
                )
            })
            .collect();
        [("cpu".to_string(), cpu)].into()
    }

    fn run(&self) -> Run {
        let now = start();
        let mut api = ApiServer::new(1, now);
        if !self.no_target {
            let t = api.load(self.target()).expect("target loads");
            if let (Some(f), Object::ReplicationController(mut rc)) = (self.put_rc, t) {
                f(&mut rc);
                api.store.put(rc.into_object());
            }
        }
        for p in self.pods(now) {
            api.load(Object::Pod(p)).expect("pod loads");
        }
        // Upstream hands the HPA to the controller through a fake client, unvalidated; the
        // store gets a valid copy (minReplicas >= 1, known metric types) and the reconcile the
        // test's object.
        let mut stored = self.hpa();
        stored.spec.min_replicas = Some(self.min_replicas.max(1));
        stored.spec.metrics.retain(|m| m.type_ == "Resource");
        if stored.spec.metrics.is_empty()
            || stored.spec.metrics.iter().any(|m| {
                m.resource
                    .as_ref()
                    .is_some_and(|r| r.target.type_.is_empty())
            })
        {
            stored.spec.metrics = vec![];
            crate::api::autoscaling::set_defaults_horizontal_pod_autoscaler(&mut stored);
        }
        api.load(stored.into_object()).expect("hpa loads");
        let mut ctrl = HorizontalController::new();
        // defaultTestingTolerance, defaultTestingCPUInitializationPeriod,
        // defaultTestingDelayOfInitialReadinessStatus
        ctrl.replica_calc = ReplicaCalculator {
            tolerance: 0.1,
            cpu_initialization_period: Duration::from_secs(120),
            delay_of_initial_readiness_status: Duration::from_secs(10),
            ..Default::default()
        };
        ctrl.fake_metrics = Some(self.metrics(now));
        if let Some(recs) = &self.recommendations {
            ctrl.recommendations.insert(
                HPA_KEY.into(),
                recs.iter()
                    .map(|(r, ago)| TimestampedRecommendation {
                        recommendation: *r,
                        timestamp: now - Duration::from_secs(*ago),
                    })
                    .collect(),
            );
        }
        // The informer's add registers the HPA's selector.
        let mut queue = WorkQueue::new();
        ctrl.resync_all_at(&api.store, &mut queue, now);
        for (name, sel) in &self.hpa_selectors {
            let l: Labels = sel
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            ctrl.hpa_selectors
                .insert(format!("{NS}/{name}"), Some(Selector::from_map(&l)));
        }
        let gates = FeatureGates::default();
        let mut world = World::default();
        let mut actions = vec![];
        let mut hpa = self.hpa();
        let stored = api
            .store
            .get::<HorizontalPodAutoscaler>(NS, "test-hpa")
            .unwrap();
        hpa.metadata = stored.metadata.clone();
        let err = {
            let mut ctx = Ctx {
                api: &mut api,
                gates: &gates,
                queue: &mut queue,
                world: &mut world,
                actions: &mut actions,
                component: COMPONENT,
            };
            ctrl.reconcile_autoscaler(&hpa, HPA_KEY, &mut ctx)
        };
        Run { api, actions, err }
    }

    /// `runTest` + `verifyResults`.
    fn run_test(&self) -> Run {
        let r = self.run();
        let name = self.name;
        // tc.scaleUpdated: a scale update that went through.
        let final_replicas =
            super::super::scale::get_scale(&r.api.store, self.resource.0, NS, self.resource.2)
                .map(|s| s.spec_replicas)
                .unwrap_or(self.spec_replicas);
        assert_eq!(
            final_replicas != self.spec_replicas,
            self.spec_replicas != self.expected_desired_replicas,
            "{name}: the scale should only be updated if we expected a change in replicas: {:?}",
            r.actions
        );
        if final_replicas != self.spec_replicas {
            assert_eq!(
                final_replicas, self.expected_desired_replicas,
                "{name}: the replica count of the target"
            );
        }
        let hpa = r
            .api
            .store
            .get::<HorizontalPodAutoscaler>(NS, "test-hpa")
            .unwrap();
        assert_eq!(
            r.actions.iter().any(|a| a.verb == "update-status"),
            !self.expect_no_status_update,
            "{name}: the status should be updated exactly when it changed"
        );
        assert_eq!(
            hpa.status.desired_replicas, self.expected_desired_replicas,
            "{name}: status.desiredReplicas"
        );
        let conds: Vec<Cond> = hpa
            .status
            .conditions
            .iter()
            .map(|c| (leak(&c.type_), leak(&c.status), leak(&c.reason)))
            .collect();
        let want = self
            .expected_conditions
            .clone()
            .unwrap_or_else(|| status_ok(&[]));
        assert_eq!(conds, want, "{name}: the status conditions");
        // reconcileAutoscaler returns an error when a condition reports a failure, and when
        // some metric failed even though the others scaled (expectedReportedReconciliationErrorLabel).
        let failed = want
            .iter()
            .any(|c| c.1 == "False" && c.0 != SCALING_LIMITED && c.2 != "ScalingDisabled")
            || self
                .metrics_target
                .iter()
                .any(|m| m.type_ == "CheddarCheese");
        let failed = self.expect_err.unwrap_or(failed);
        assert_eq!(r.err.is_err(), failed, "{name}: {:?}", r.err);
        if let Some(cur) = self.cpu_current {
            let u = hpa
                .status
                .current_metrics
                .iter()
                .find_map(|m| m.resource.as_ref().filter(|r| r.name == "cpu"))
                .and_then(|r| r.current.average_utilization);
            assert_eq!(
                u,
                Some(cur),
                "{name}: the reported CPU utilization percentage"
            );
        }
        let events: Vec<(String, String)> = r
            .api
            .events
            .iter()
            .map(|e| (e.reason.to_string(), e.message.clone()))
            .collect();
        if self.verify_events {
            let changed = self.spec_replicas != self.expected_desired_replicas;
            assert_eq!(!events.is_empty(), changed, "{name}: events {events:?}");
            for (reason, msg) in &events {
                assert_eq!(reason, "SuccessfulRescale", "{name}");
                assert_eq!(
                    msg,
                    &format!(
                        "New size: {}; reason: cpu resource utilization (percentage of request) above target",
                        self.expected_desired_replicas
                    ),
                    "{name}"
                );
            }
        }
        if let Some(want) = &self.expected_events {
            let want: Vec<(String, String)> = want
                .iter()
                .map(|(r, m)| (r.to_string(), m.clone()))
                .collect();
            assert_eq!(events, want, "{name}: events");
        }
        r
    }
}

fn leak(s: &str) -> &'static str {
    Box::leak(s.to_string().into_boxed_str())
}

fn one_core(n: usize) -> Option<Vec<&'static str>> {
    Some(vec!["1.0"; n])
}

// Ports of TestScaleUp, TestScaleUpContainer (skipped), TestScaleUpUnreadyLessScale,
// TestScaleUpHotCpuLessScale, TestScaleUpUnreadyNoScale, TestScaleUpHotCpuNoScale,
// TestScaleUpIgnoresFailedPods, TestScaleUpIgnoresDeletionPods, TestScaleUpDeployment,
// TestScaleUpReplicaSet.
#[test]
fn scale_up_table() {
    let base = TestCase {
        min_replicas: 2,
        max_replicas: 6,
        spec_replicas: 3,
        status_replicas: 3,
        cpu_target: 30,
        reported_levels: vec![300, 500, 700],
        reported_cpu_requests: one_core(3),
        ..Default::default()
    };
    let cases = vec![
        TestCase {
            name: "TestScaleUp",
            expected_desired_replicas: 5,
            cpu_current: Some(50),
            ..base.clone()
        },
        TestCase {
            name: "TestScaleUpUnreadyLessScale",
            expected_desired_replicas: 4,
            cpu_current: Some(60),
            reported_pod_readiness: vec!["False", "True", "True"],
            ..base.clone()
        },
        TestCase {
            name: "TestScaleUpHotCpuLessScale",
            expected_desired_replicas: 4,
            cpu_current: Some(60),
            reported_pod_start_time: vec![StartTime::Hot, StartTime::Cool, StartTime::Cool],
            ..base.clone()
        },
        TestCase {
            name: "TestScaleUpUnreadyNoScale",
            expected_desired_replicas: 3,
            cpu_current: Some(40),
            reported_levels: vec![400, 500, 700],
            reported_pod_readiness: vec!["True", "False", "False"],
            expected_conditions: Some(status_ok(&[(ABLE_TO_SCALE, "True", "ReadyForNewScale")])),
            ..base.clone()
        },
        TestCase {
            name: "TestScaleUpHotCpuNoScale",
            expected_desired_replicas: 3,
            cpu_current: Some(40),
            reported_levels: vec![400, 500, 700],
            reported_pod_readiness: vec!["True", "False", "False"],
            reported_pod_start_time: vec![StartTime::Cool, StartTime::Hot, StartTime::Hot],
            expected_conditions: Some(status_ok(&[(ABLE_TO_SCALE, "True", "ReadyForNewScale")])),
            ..base.clone()
        },
        TestCase {
            name: "TestScaleUpIgnoresFailedPods",
            spec_replicas: 2,
            status_replicas: 2,
            expected_desired_replicas: 4,
            cpu_current: Some(60),
            reported_levels: vec![500, 700],
            reported_cpu_requests: one_core(4),
            reported_pod_readiness: vec!["True", "True", "False", "False"],
            reported_pod_phase: vec!["Running", "Running", "Failed", "Failed"],
            ..base.clone()
        },
        TestCase {
            name: "TestScaleUpIgnoresDeletionPods",
            spec_replicas: 2,
            status_replicas: 2,
            expected_desired_replicas: 4,
            cpu_current: Some(60),
            reported_levels: vec![500, 700],
            reported_cpu_requests: one_core(4),
            reported_pod_readiness: vec!["True", "True", "False", "False"],
            reported_pod_deletion_timestamp: vec![false, false, true, true],
            ..base.clone()
        },
        TestCase {
            name: "TestScaleUpDeployment",
            expected_desired_replicas: 5,
            cpu_current: Some(50),
            resource: ("Deployment", "apps/v1", "test-dep"),
            ..base.clone()
        },
        TestCase {
            name: "TestScaleUpReplicaSet",
            expected_desired_replicas: 5,
            cpu_current: Some(50),
            resource: ("ReplicaSet", "apps/v1", "test-replicaset"),
            ..base.clone()
        },
    ];
    for tc in cases {
        tc.run_test();
    }
}

// Ports of TestScaleUpOneMetricInvalid, TestScaleUpFromZeroOneMetricInvalid and
// TestScaleUpBothMetricsEmpty (an unknown metric source type, "CheddarCheese").
#[test]
fn invalid_metric_source_table() {
    let cheddar = vec![MetricSpec {
        type_: "CheddarCheese".into(),
        ..Default::default()
    }];
    let cases = vec![
        TestCase {
            name: "TestScaleUpOneMetricInvalid",
            expected_desired_replicas: 4,
            cpu_target: 30,
            cpu_current: Some(40),
            metrics_target: cheddar.clone(),
            reported_levels: vec![300, 400, 500],
            reported_cpu_requests: one_core(3),
            ..Default::default()
        },
        TestCase {
            name: "TestScaleUpFromZeroOneMetricInvalid",
            min_replicas: 0,
            spec_replicas: 0,
            status_replicas: 0,
            expected_desired_replicas: 4,
            cpu_target: 30,
            cpu_current: Some(40),
            metrics_target: cheddar.clone(),
            reported_levels: vec![300, 400, 500],
            reported_cpu_requests: one_core(3),
            recommendations: Some(vec![]),
            ..Default::default()
        },
        TestCase {
            name: "TestScaleUpBothMetricsEmpty",
            expected_desired_replicas: 3,
            metrics_target: cheddar.clone(),
            reported_cpu_requests: one_core(3),
            expected_conditions: Some(vec![
                (ABLE_TO_SCALE, "True", "SucceededGetScale"),
                (SCALING_ACTIVE, "False", "InvalidMetricSourceType"),
            ]),
            expected_events: Some(vec![
                ("InvalidMetricSourceType", "unknown metric source type \"CheddarCheese\"".into()),
                (
                    "FailedComputeMetricsReplicas",
                    "invalid metrics (1 invalid out of 1), first error is: unknown metric source type \"CheddarCheese\"".into(),
                ),
            ]),
            ..Default::default()
        },
    ];
    for tc in cases {
        tc.run_test();
    }
}

// Ports of TestScaleDown, TestScaleDownWithScalingRules, TestScaleDownStabilizeInitialSize,
// TestScaleDownIncludeUnreadyPods, TestScaleDownIgnoreHotCpuPods, TestScaleDownIgnoresFailedPods,
// TestScaleDownIgnoresDeletionPods. (TestScaleDownContainerResource: skipped, kubeplay's
// metrics have no per-container samples.)
#[test]
fn scale_down_table() {
    let base = TestCase {
        min_replicas: 2,
        max_replicas: 6,
        spec_replicas: 5,
        status_replicas: 5,
        cpu_target: 50,
        reported_levels: vec![100, 300, 500, 250, 250],
        reported_cpu_requests: one_core(5),
        recommendations: Some(vec![]),
        ..Default::default()
    };
    let cases = vec![
        TestCase {
            name: "TestScaleDown",
            expected_desired_replicas: 3,
            cpu_current: Some(28),
            ..base.clone()
        },
        TestCase {
            name: "TestScaleDownWithScalingRules",
            scale_up_rules: Some(generate_scaling_rules(0, 0, 100, 15, 30)),
            expected_desired_replicas: 3,
            cpu_current: Some(28),
            ..base.clone()
        },
        TestCase {
            name: "TestScaleDownStabilizeInitialSize",
            expected_desired_replicas: 5,
            cpu_current: Some(28),
            recommendations: None,
            expected_conditions: Some(status_ok(&[(ABLE_TO_SCALE, "True", "ScaleDownStabilized")])),
            ..base.clone()
        },
        TestCase {
            name: "TestScaleDownIncludeUnreadyPods",
            expected_desired_replicas: 2,
            cpu_current: Some(30),
            reported_pod_readiness: vec!["True", "True", "True", "False", "False"],
            ..base.clone()
        },
        TestCase {
            name: "TestScaleDownIgnoreHotCpuPods",
            expected_desired_replicas: 2,
            cpu_current: Some(30),
            reported_pod_start_time: vec![
                StartTime::Cool,
                StartTime::Cool,
                StartTime::Cool,
                StartTime::Hot,
                StartTime::Hot,
            ],
            ..base.clone()
        },
        TestCase {
            name: "TestScaleDownIgnoresFailedPods",
            expected_desired_replicas: 3,
            cpu_current: Some(28),
            reported_cpu_requests: one_core(7),
            reported_pod_readiness: vec!["True", "True", "True", "True", "True", "False", "False"],
            reported_pod_phase: vec![
                "Running", "Running", "Running", "Running", "Running", "Failed", "Failed",
            ],
            ..base.clone()
        },
        TestCase {
            name: "TestScaleDownIgnoresDeletionPods",
            expected_desired_replicas: 3,
            cpu_current: Some(28),
            reported_cpu_requests: one_core(7),
            reported_pod_readiness: vec!["True", "True", "True", "True", "True", "False", "False"],
            reported_pod_deletion_timestamp: vec![false, false, false, false, false, true, true],
            ..base.clone()
        },
    ];
    for tc in cases {
        tc.run_test();
    }
}

// Ports of TestTolerance, TestMinReplicas, TestZeroMinReplicasDesiredZero,
// TestMinReplicasDesiredZero, TestZeroReplicas, TestTooFewReplicas, TestTooManyReplicas.
// (The *CM* / *CMObject* / *CMExternal* variants need the custom and external metrics APIs,
// which kubeplay does not serve.)
#[test]
fn tolerance_and_bounds_table() {
    let uneven = Some(vec!["0.9", "1.0", "1.1"]);
    let cases = vec![
        TestCase {
            name: "TestTolerance",
            min_replicas: 1,
            max_replicas: 5,
            expected_desired_replicas: 3,
            cpu_target: 100,
            reported_levels: vec![1010, 1030, 1020],
            reported_cpu_requests: uneven.clone(),
            expected_conditions: Some(status_ok(&[(ABLE_TO_SCALE, "True", "ReadyForNewScale")])),
            ..Default::default()
        },
        TestCase {
            name: "TestMinReplicas",
            max_replicas: 5,
            expected_desired_replicas: 2,
            cpu_target: 90,
            reported_levels: vec![10, 95, 10],
            reported_cpu_requests: uneven.clone(),
            expected_conditions: Some(status_ok(&[(SCALING_LIMITED, "True", "TooFewReplicas")])),
            recommendations: Some(vec![]),
            ..Default::default()
        },
        TestCase {
            name: "TestZeroMinReplicasDesiredZero",
            min_replicas: 0,
            max_replicas: 5,
            expected_desired_replicas: 0,
            cpu_target: 90,
            reported_levels: vec![0, 0, 0],
            reported_cpu_requests: uneven.clone(),
            recommendations: Some(vec![]),
            ..Default::default()
        },
        TestCase {
            name: "TestMinReplicasDesiredZero",
            max_replicas: 5,
            expected_desired_replicas: 2,
            cpu_target: 90,
            reported_levels: vec![0, 0, 0],
            reported_cpu_requests: uneven.clone(),
            expected_conditions: Some(status_ok(&[(SCALING_LIMITED, "True", "TooFewReplicas")])),
            recommendations: Some(vec![]),
            ..Default::default()
        },
        TestCase {
            name: "TestZeroReplicas",
            min_replicas: 3,
            max_replicas: 5,
            spec_replicas: 0,
            status_replicas: 0,
            expected_desired_replicas: 0,
            cpu_target: 90,
            reported_cpu_requests: Some(vec![]),
            expected_conditions: Some(vec![
                (ABLE_TO_SCALE, "True", "SucceededGetScale"),
                (SCALING_ACTIVE, "False", "ScalingDisabled"),
            ]),
            ..Default::default()
        },
        TestCase {
            name: "TestTooFewReplicas",
            min_replicas: 3,
            max_replicas: 5,
            spec_replicas: 2,
            status_replicas: 2,
            expected_desired_replicas: 3,
            cpu_target: 90,
            reported_cpu_requests: Some(vec![]),
            expected_conditions: Some(vec![(ABLE_TO_SCALE, "True", "SucceededRescale")]),
            ..Default::default()
        },
        TestCase {
            name: "TestTooManyReplicas",
            min_replicas: 3,
            max_replicas: 5,
            spec_replicas: 10,
            status_replicas: 10,
            expected_desired_replicas: 5,
            cpu_target: 90,
            reported_cpu_requests: Some(vec![]),
            expected_conditions: Some(vec![(ABLE_TO_SCALE, "True", "SucceededRescale")]),
            ..Default::default()
        },
    ];
    for tc in cases {
        tc.run_test();
    }
}

/// `generateScalingRules` (pkg/controller/podautoscaler/testutil): a Max-select rule with an
/// optional Pods and Percent policy (0 = absent).
pub(super) fn generate_scaling_rules(
    pods: i32,
    pods_period: i32,
    percent: i32,
    percent_period: i32,
    stabilization_window: i32,
) -> HpaScalingRules {
    let mut policies = vec![];
    if pods != 0 {
        policies.push(crate::api::autoscaling::HpaScalingPolicy {
            type_: "Pods".into(),
            value: pods,
            period_seconds: pods_period,
        });
    }
    if percent != 0 {
        policies.push(crate::api::autoscaling::HpaScalingPolicy {
            type_: "Percent".into(),
            value: percent,
            period_seconds: percent_period,
        });
    }
    HpaScalingRules {
        stabilization_window_seconds: Some(stabilization_window),
        select_policy: Some("Max".into()),
        policies: (!policies.is_empty()).then_some(policies),
        tolerance: None,
    }
}

// Ports of TestMaxReplicas, TestSuperfluousMetrics, TestMissingMetrics, TestEmptyMetrics,
// TestEmptyCPURequest, TestEventCreated, TestEventNotCreated, TestMissingReports,
// TestUpscaleCap, TestUpscaleCapGreaterThanMaxReplicas, TestMoreReplicasThanSpecNoScale,
// TestStabilizeDownscale, TestScaleUpRCImmediately, TestScaleDownRCImmediately.
#[test]
fn limits_metrics_and_events_table() {
    let uneven = Some(vec!["0.9", "1.0", "1.1"]);
    let failed_metric = Some(vec![
        (ABLE_TO_SCALE, "True", "SucceededGetScale"),
        (SCALING_ACTIVE, "False", "FailedGetResourceMetric"),
    ]);
    let cases = vec![
        TestCase {
            name: "TestMaxReplicas",
            max_replicas: 5,
            expected_desired_replicas: 5,
            cpu_target: 90,
            reported_levels: vec![8000, 9500, 1000],
            reported_cpu_requests: uneven.clone(),
            expected_conditions: Some(status_ok(&[(SCALING_LIMITED, "True", "TooManyReplicas")])),
            ..Default::default()
        },
        TestCase {
            name: "TestSuperfluousMetrics",
            spec_replicas: 4,
            status_replicas: 4,
            expected_desired_replicas: 6,
            cpu_target: 100,
            reported_levels: vec![4000, 9500, 3000, 7000, 3200, 2000],
            reported_cpu_requests: one_core(4),
            expected_conditions: Some(status_ok(&[(SCALING_LIMITED, "True", "TooManyReplicas")])),
            ..Default::default()
        },
        TestCase {
            name: "TestMissingMetrics",
            spec_replicas: 4,
            status_replicas: 4,
            expected_desired_replicas: 3,
            cpu_target: 100,
            reported_levels: vec![400, 95],
            reported_cpu_requests: one_core(4),
            recommendations: Some(vec![]),
            ..Default::default()
        },
        TestCase {
            name: "TestEmptyMetrics",
            spec_replicas: 4,
            status_replicas: 4,
            expected_desired_replicas: 4,
            cpu_target: 100,
            reported_cpu_requests: one_core(4),
            expected_conditions: failed_metric.clone(),
            expected_events: Some(vec![
                (
                    "FailedGetResourceMetric",
                    "failed to get cpu utilization: unable to get metrics for resource cpu: no metrics returned from resource metrics API".into(),
                ),
                (
                    "FailedComputeMetricsReplicas",
                    "invalid metrics (1 invalid out of 1), first error is: failed to get cpu resource metric value: failed to get cpu utilization: unable to get metrics for resource cpu: no metrics returned from resource metrics API".into(),
                ),
            ]),
            ..Default::default()
        },
        TestCase {
            name: "TestEmptyCPURequest",
            min_replicas: 1,
            max_replicas: 5,
            spec_replicas: 1,
            status_replicas: 1,
            expected_desired_replicas: 1,
            cpu_target: 100,
            reported_levels: vec![200],
            reported_cpu_requests: Some(vec![]),
            expected_conditions: failed_metric.clone(),
            ..Default::default()
        },
        TestCase {
            name: "TestEventCreated",
            min_replicas: 1,
            max_replicas: 5,
            spec_replicas: 1,
            status_replicas: 1,
            expected_desired_replicas: 2,
            cpu_target: 50,
            reported_levels: vec![200],
            reported_cpu_requests: Some(vec!["0.2"]),
            verify_events: true,
            ..Default::default()
        },
        TestCase {
            name: "TestEventNotCreated",
            min_replicas: 1,
            max_replicas: 5,
            spec_replicas: 2,
            status_replicas: 2,
            expected_desired_replicas: 2,
            cpu_target: 50,
            reported_levels: vec![200, 200],
            reported_cpu_requests: Some(vec!["0.4", "0.4"]),
            verify_events: true,
            expected_conditions: Some(status_ok(&[(ABLE_TO_SCALE, "True", "ReadyForNewScale")])),
            ..Default::default()
        },
        TestCase {
            name: "TestMissingReports",
            min_replicas: 1,
            max_replicas: 5,
            spec_replicas: 4,
            status_replicas: 4,
            expected_desired_replicas: 2,
            cpu_target: 50,
            reported_levels: vec![200],
            reported_cpu_requests: Some(vec!["0.2"]),
            recommendations: Some(vec![]),
            ..Default::default()
        },
        TestCase {
            name: "TestUpscaleCap",
            min_replicas: 1,
            max_replicas: 100,
            scale_up_rules: Some(generate_scaling_rules(0, 0, 700, 60, 0)),
            expected_desired_replicas: 24,
            cpu_target: 10,
            reported_levels: vec![100, 200, 300],
            reported_cpu_requests: Some(vec!["0.1", "0.1", "0.1"]),
            expected_conditions: Some(status_ok(&[(SCALING_LIMITED, "True", "ScaleUpLimit")])),
            ..Default::default()
        },
        TestCase {
            name: "TestUpscaleCapGreaterThanMaxReplicas",
            min_replicas: 1,
            max_replicas: 20,
            scale_up_rules: Some(generate_scaling_rules(0, 0, 700, 60, 0)),
            expected_desired_replicas: 20,
            cpu_target: 10,
            reported_levels: vec![100, 200, 300],
            reported_cpu_requests: Some(vec!["0.1", "0.1", "0.1"]),
            expected_conditions: Some(status_ok(&[(SCALING_LIMITED, "True", "TooManyReplicas")])),
            ..Default::default()
        },
        TestCase {
            name: "TestMoreReplicasThanSpecNoScale",
            min_replicas: 1,
            max_replicas: 8,
            spec_replicas: 4,
            status_replicas: 5,
            expected_desired_replicas: 4,
            cpu_target: 50,
            reported_levels: vec![500, 500, 500, 500, 500],
            reported_cpu_requests: Some(vec!["1", "1", "1", "1", "1"]),
            expected_conditions: Some(status_ok(&[(ABLE_TO_SCALE, "True", "ReadyForNewScale")])),
            ..Default::default()
        },
        TestCase {
            name: "TestStabilizeDownscale",
            min_replicas: 1,
            max_replicas: 5,
            spec_replicas: 4,
            status_replicas: 4,
            expected_desired_replicas: 4,
            cpu_target: 100,
            reported_levels: vec![50, 50, 50],
            reported_cpu_requests: Some(vec!["0.1", "0.1", "0.1"]),
            recommendations: Some(vec![(10, 600), (4, 60)]),
            expected_conditions: Some(status_ok(&[(ABLE_TO_SCALE, "True", "ScaleDownStabilized")])),
            ..Default::default()
        },
        TestCase {
            name: "TestScaleUpRCImmediately",
            spec_replicas: 1,
            status_replicas: 1,
            expected_desired_replicas: 2,
            reported_levels: vec![0, 0, 0, 0],
            reported_cpu_requests: one_core(4),
            last_scale_time: Some(start()),
            expected_conditions: Some(vec![(ABLE_TO_SCALE, "True", "SucceededRescale")]),
            ..Default::default()
        },
        TestCase {
            name: "TestScaleDownRCImmediately",
            max_replicas: 5,
            spec_replicas: 6,
            status_replicas: 6,
            expected_desired_replicas: 5,
            cpu_target: 50,
            reported_levels: vec![8000, 9500, 1000],
            reported_cpu_requests: uneven.clone(),
            last_scale_time: Some(start()),
            expected_conditions: Some(vec![(ABLE_TO_SCALE, "True", "SucceededRescale")]),
            ..Default::default()
        },
    ];
    for tc in cases {
        tc.run_test();
    }
}

// Port of TestComputedToleranceAlgImplementation: a target just past the tolerance scales
// 10 → 9; one just inside it does not.
#[test]
fn computed_tolerance_alg_implementation() {
    let start_pods = 10i32;
    let total_used: u64 = (start_pods * 150) as u64;
    let total_requested = (2 * total_used) as i32;
    let requested_to_used = f64::from(total_requested / total_used as i32);
    let per_pod = total_requested / start_pods;
    let tolerance = 0.1;
    let target = (1.0 / (requested_to_used * (1.0 - tolerance))).abs() + 0.01;
    let final_target = (target * 100.0) as i32;
    let used_ratio = total_used as f64 / (f64::from(total_requested) * target);
    let final_pods = (used_ratio * f64::from(start_pods)).ceil() as i32;
    let requests: Vec<&'static str> = [100, -100, 10, -10, 2, -2, 1, -1, 0, 0]
        .iter()
        .map(|d| leak(&format!("{}m", per_pod + d)))
        .collect();
    let tc1 = TestCase {
        name: "TestComputedToleranceAlgImplementation/1",
        min_replicas: 0,
        max_replicas: 1000,
        spec_replicas: start_pods,
        status_replicas: start_pods,
        expected_desired_replicas: final_pods,
        cpu_target: final_target,
        reported_levels: vec![total_used / 10; 10],
        reported_cpu_requests: Some(requests.clone()),
        recommendations: Some(vec![]),
        ..Default::default()
    };
    assert_eq!((final_target, final_pods), (56, 9));
    tc1.run_test();
    let target = (1.0 / (requested_to_used * (1.0 - tolerance))).abs() + 0.004;
    let tc2 = TestCase {
        name: "TestComputedToleranceAlgImplementation/2",
        expected_desired_replicas: start_pods,
        cpu_target: (target * 100.0) as i32,
        expected_conditions: Some(status_ok(&[(ABLE_TO_SCALE, "True", "ReadyForNewScale")])),
        ..tc1
    };
    tc2.run_test();
}

// Ports of TestConditionInvalidSelectorMissing, TestConditionInvalidSelectorUnparsable,
// TestConditionNoAmbiguousSelectorWhenNoSelectorOverlapBetweenHPAs,
// TestConditionAmbiguousSelectorWhenFullSelectorOverlapBetweenHPAs,
// TestConditionAmbiguousSelectorWhenPartialSelectorOverlapBetweenHPAs,
// TestConditionFailedGetMetrics, TestConditionInvalidSourceType, TestConditionFailedGetScale,
// TestConditionFailedUpdateScale.
#[test]
fn conditions_table() {
    let base = TestCase {
        min_replicas: 1,
        max_replicas: 100,
        expected_desired_replicas: 3,
        cpu_target: 10,
        reported_levels: vec![100, 200, 300],
        reported_cpu_requests: Some(vec!["0.1", "0.1", "0.1"]),
        ..Default::default()
    };
    let scaling_active_false = |reason: &'static str| {
        Some(vec![
            (ABLE_TO_SCALE, "True", "SucceededGetScale"),
            (SCALING_ACTIVE, "False", reason),
        ])
    };
    let up = TestCase {
        min_replicas: 2,
        max_replicas: 6,
        cpu_target: 30,
        reported_levels: vec![300, 500, 700],
        reported_cpu_requests: one_core(3),
        ..Default::default()
    };
    let mut cases = vec![
        TestCase {
            name: "TestConditionInvalidSelectorMissing",
            put_rc: Some(|rc| rc.spec.selector = Labels::new()),
            expected_conditions: scaling_active_false("InvalidSelector"),
            expected_events: Some(vec![
                ("SelectorRequired", "selector is required".into()),
                ("FailedComputeMetricsReplicas", "selector is required".into()),
            ]),
            ..base.clone()
        },
        TestCase {
            name: "TestConditionInvalidSelectorUnparsable",
            put_rc: Some(|rc| {
                rc.spec.selector = [("cheddar cheese".to_string(), String::new())].into()
            }),
            expected_conditions: scaling_active_false("InvalidSelector"),
            ..base.clone()
        },
        TestCase {
            name: "TestConditionNoAmbiguousSelectorWhenNoSelectorOverlapBetweenHPAs",
            expected_desired_replicas: 5,
            hpa_selectors: vec![("test-hpa-2", &[("cheddar", "cheese")])],
            ..up.clone()
        },
        TestCase {
            name: "TestConditionAmbiguousSelectorWhenFullSelectorOverlapBetweenHPAs",
            expected_desired_replicas: 3,
            hpa_selectors: vec![("test-hpa-2", &[("name", "test-pod")])],
            expected_conditions: scaling_active_false("AmbiguousSelector"),
            expected_events: Some(vec![
                ("AmbiguousSelector", "pods by selector name=test-pod are controlled by multiple HPAs: [test-namespace/test-hpa test-namespace/test-hpa-2]".into()),
                ("FailedComputeMetricsReplicas", "pods by selector name=test-pod are controlled by multiple HPAs: [test-namespace/test-hpa test-namespace/test-hpa-2]".into()),
            ]),
            ..up.clone()
        },
        TestCase {
            name: "TestConditionAmbiguousSelectorWhenPartialSelectorOverlapBetweenHPAs",
            expected_desired_replicas: 3,
            hpa_selectors: vec![("test-hpa-2", &[("cheddar", "cheese")])],
            pod_labels: &[("cheddar", "cheese")],
            expected_conditions: scaling_active_false("AmbiguousSelector"),
            ..up.clone()
        },
        TestCase {
            name: "TestConditionInvalidSourceType",
            min_replicas: 2,
            max_replicas: 6,
            cpu_target: 0,
            metrics_target: vec![MetricSpec {
                type_: "CheddarCheese".into(),
                ..Default::default()
            }],
            reported_levels: vec![20000],
            expected_conditions: scaling_active_false("InvalidMetricSourceType"),
            ..base.clone()
        },
        TestCase {
            name: "TestConditionFailedGetScale",
            no_target: true,
            expected_conditions: Some(vec![(ABLE_TO_SCALE, "False", "FailedGetScale")]),
            expected_events: Some(vec![(
                "FailedGetScale",
                "replicationcontrollers \"test-rc\" not found".into(),
            )]),
            ..base.clone()
        },
        TestCase {
            name: "TestConditionFailedUpdateScale",
            max_replicas: 5,
            cpu_target: 100,
            reported_levels: vec![150, 150, 150],
            // The scale update is refused (here: the stored object fails validation).
            put_rc: Some(|rc| rc.spec.template = None),
            expected_conditions: Some(status_ok(&[(ABLE_TO_SCALE, "False", "FailedUpdateScale")])),
            ..base.clone()
        },
    ];
    // TestConditionFailedGetMetrics: the resource metrics API fails (here: returns nothing);
    // the custom and external metrics APIs are not served.
    let json = |v: serde_json::Value| Some(v);
    for (reason, spec) in [
        ("FailedGetResourceMetric", None),
        (
            "FailedGetPodsMetric",
            Some(MetricSpec {
                type_: "Pods".into(),
                pods: json(
                    serde_json::json!({"metric": {"name": "qps"}, "target": {"type": "AverageValue", "averageValue": "15"}}),
                ),
                ..Default::default()
            }),
        ),
        (
            "FailedGetObjectMetric",
            Some(MetricSpec {
                type_: "Object".into(),
                object: json(
                    serde_json::json!({"describedObject": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "some-deployment"}, "metric": {"name": "qps"}, "target": {"type": "Value", "value": "15"}}),
                ),
                ..Default::default()
            }),
        ),
        (
            "FailedGetExternalMetric",
            Some(MetricSpec {
                type_: "External".into(),
                external: json(
                    serde_json::json!({"metric": {"name": "qps", "selector": {}}, "target": {"type": "Value", "value": "300m"}}),
                ),
                ..Default::default()
            }),
        ),
    ] {
        cases.push(TestCase {
            name: leak(&format!("TestConditionFailedGetMetrics/{reason}")),
            cpu_target: if spec.is_some() { 0 } else { 10 },
            metrics_target: spec.into_iter().collect(),
            reported_levels: vec![],
            expected_conditions: scaling_active_false(reason),
            ..base.clone()
        });
    }
    for tc in cases {
        tc.run_test();
    }
}

// Port of TestAvoidUnnecessaryUpdates: a sync that computes exactly the stored status writes
// nothing.
#[test]
fn avoid_unnecessary_updates() {
    let last = start() - Duration::from_secs(3600);
    let cond = |t: &str, reason: &str, msg: &str| HorizontalPodAutoscalerCondition {
        type_: t.into(),
        status: "True".into(),
        last_transition_time: Some(last),
        reason: reason.into(),
        message: msg.into(),
    };
    let tc = TestCase {
        name: "TestAvoidUnnecessaryUpdates",
        spec_replicas: 2,
        status_replicas: 2,
        expected_desired_replicas: 2,
        // Upstream's HPA carries a target of 80 (see the TODO in the upstream test).
        cpu_target: 80,
        reported_levels: vec![400, 500, 700],
        reported_cpu_requests: one_core(3),
        reported_pod_start_time: vec![StartTime::Cool, StartTime::Hot, StartTime::Hot],
        last_scale_time: Some(last),
        recommendations: Some(vec![]),
        initial_status: Some(HorizontalPodAutoscalerStatus {
            current_replicas: 2,
            desired_replicas: 2,
            last_scale_time: Some(last),
            current_metrics: vec![MetricStatus {
                type_: "Resource".into(),
                resource: Some(ResourceMetricStatus {
                    name: "cpu".into(),
                    current: MetricValueStatus {
                        average_value: Some(Quantity("400m".into())),
                        average_utilization: Some(40),
                        ..Default::default()
                    },
                }),
                ..Default::default()
            }],
            conditions: vec![
                cond(ABLE_TO_SCALE, "ReadyForNewScale", "recommended size matches current size"),
                cond(SCALING_ACTIVE, "ValidMetricFound", "the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)"),
                cond(SCALING_LIMITED, "TooFewReplicas", "the desired replica count is less than the minimum replica count"),
            ],
            ..Default::default()
        }),
        expect_no_status_update: true,
        expected_conditions: Some(vec![
            (ABLE_TO_SCALE, "True", "ReadyForNewScale"),
            (SCALING_ACTIVE, "True", "ValidMetricFound"),
            (SCALING_LIMITED, "True", "TooFewReplicas"),
        ]),
        ..Default::default()
    };
    tc.run_test();
}

// Upstream: TestNoScaleDownOneMetricInvalid (pkg/controller/podautoscaler/horizontal_test.go), in
// its form since kubernetes/kubernetes#99514 (1.21): the CPU metric alone would scale 5 → 3,
// but with another metric invalid computeReplicasForMetrics refuses to scale down, so nothing
// changes and ScalingActive is False with the invalid metric's reason. The reference index only
// holds the pre-#99514 copy (expecting 5 through a stabilization window, beside a
// TestScaleDownOneMetricInvalid expecting 3 that #99514 removed), so the conditions here follow
// 1.35's computeReplicasForMetrics (`invalidMetricsCount > 0 && replicas < specReplicas`: the
// first invalid metric's condition, and an error), not a stored test text.
#[test]
fn no_scale_down_one_metric_invalid() {
    TestCase {
        name: "TestNoScaleDownOneMetricInvalid",
        min_replicas: 2,
        max_replicas: 6,
        spec_replicas: 5,
        status_replicas: 5,
        expected_desired_replicas: 5,
        cpu_target: 50,
        metrics_target: vec![MetricSpec {
            type_: "CheddarCheese".into(),
            ..Default::default()
        }],
        reported_levels: vec![100, 300, 500, 250, 250],
        reported_cpu_requests: one_core(5),
        recommendations: Some(vec![]),
        expected_conditions: Some(vec![
            (ABLE_TO_SCALE, "True", "SucceededGetScale"),
            (SCALING_ACTIVE, "False", "InvalidMetricSourceType"),
        ]),
        ..Default::default()
    }
    .run_test();
}

#[path = "horizontal_controller_tests2.rs"]
mod more;

#[path = "horizontal_audit_tests.rs"]
mod audit;

#[path = "horizontal_replica_calc_gap_tests.rs"]
mod replica_calc_gap;
