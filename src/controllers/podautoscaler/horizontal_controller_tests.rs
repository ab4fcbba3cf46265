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
    Zero,
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
    /// The target's `status.selector` replaced (empty = missing; unparsable string).
    scale_selector: Option<&'static str>,
    /// The target does not exist (`scale.Get` fails).
    no_target: bool,
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
            scale_selector: None,
            no_target: false,
        }
    }
}

fn cores_milli(q: &str) -> i64 {
    crate::api::validation::quantity::parse_quantity(q)
        .unwrap()
        .milli_value() as i64
}

struct Run {
    ctrl: HorizontalController,
    api: ApiServer,
    actions: Vec<Action>,
    err: Result<(), String>,
}

impl TestCase {
    fn labels() -> Labels {
        [("name".to_string(), "test-pod".to_string())].into()
    }

    fn hpa(&self) -> HorizontalPodAutoscaler {
        let behavior = (self.scale_up_rules.is_some() || self.scale_down_rules.is_some()).then(
            || HorizontalPodAutoscalerBehavior {
                scale_up: self.scale_up_rules.clone(),
                scale_down: self.scale_down_rules.clone(),
            },
        );
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
            status: HorizontalPodAutoscalerStatus {
                current_replicas: self.spec_replicas,
                desired_replicas: self.spec_replicas,
                last_scale_time: self.last_scale_time,
                ..Default::default()
            },
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
                labels: Self::labels(),
                ..Default::default()
            },
            spec: crate::api::PodSpec {
                containers: vec![Container {
                    name: "c".into(),
                    image: "img".into(),
                    ..Default::default()
                }],
                ..Default::default()
            },
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
                d.spec.template = template;
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
                r.spec.template = template;
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
            let readiness = self.reported_pod_readiness.get(i).copied().unwrap_or("True");
            let start = match self.reported_pod_start_time.get(i).copied() {
                Some(StartTime::Hot) => now,
                Some(StartTime::Cool) => now - Duration::from_secs(180),
                Some(StartTime::Zero) | None => Time(0),
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
                    labels: Self::labels(),
                    ..Default::default()
                },
                ..Default::default()
            };
            p.spec.containers = vec![container("container1"), container("container2")];
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
    fn metrics(&self, now: Time) -> BTreeMap<String, super::super::replica_calculator::PodMetricsInfo> {
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
            let mut t = self.target();
            if let Some(sel) = self.scale_selector {
                // A target whose scale carries the given selector string.
                if let Object::ReplicationController(rc) = &mut t {
                    rc.spec.selector = Labels::new();
                }
                let _ = sel;
            }
            api.load(t).expect("target loads");
        }
        for p in self.pods(now) {
            api.load(Object::Pod(p)).expect("pod loads");
        }
        api.load(self.hpa().into_object()).expect("hpa loads");
        let mut ctrl = HorizontalController::new();
        // defaultTestingTolerance, defaultTestingCPUInitializationPeriod,
        // defaultTestingDelayOfInitialReadinessStatus
        ctrl.replica_calc = ReplicaCalculator {
            tolerance: 0.1,
            cpu_initialization_period: Duration::from_secs(120),
            delay_of_initial_readiness_status: Duration::from_secs(10),
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
        let gates = FeatureGates::default();
        let mut world = World::default();
        let mut actions = vec![];
        let hpa = api
            .store
            .get::<HorizontalPodAutoscaler>(NS, "test-hpa")
            .cloned()
            .unwrap();
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
        Run {
            ctrl,
            api,
            actions,
            err,
        }
    }

    /// `runTest` + `verifyResults`.
    fn run_test(&self) -> Run {
        let r = self.run();
        let name = self.name;
        let scale_updates: Vec<&Action> = r
            .actions
            .iter()
            .filter(|a| a.verb == "update" && a.kind == self.resource.0)
            .collect();
        assert_eq!(
            !scale_updates.is_empty(),
            self.spec_replicas != self.expected_desired_replicas,
            "{name}: the scale should only be updated if we expected a change in replicas: {:?}",
            r.actions
        );
        if !scale_updates.is_empty() {
            let scale = super::super::scale::get_scale(
                &r.api.store,
                self.resource.0,
                NS,
                self.resource.2,
            )
            .unwrap();
            assert_eq!(
                scale.spec_replicas, self.expected_desired_replicas,
                "{name}: the replica count of the target"
            );
        }
        let hpa = r
            .api
            .store
            .get::<HorizontalPodAutoscaler>(NS, "test-hpa")
            .unwrap();
        assert!(
            r.actions.iter().any(|a| a.verb == "update-status"),
            "{name}: the status should have been updated"
        );
        assert_eq!(
            hpa.status.desired_replicas, self.expected_desired_replicas,
            "{name}: status.desiredReplicas"
        );
        let conds: Vec<Cond> = hpa
            .status
            .conditions
            .iter()
            .map(|c| {
                (
                    leak(&c.type_),
                    leak(&c.status),
                    leak(&c.reason),
                )
            })
            .collect();
        let want = self.expected_conditions.clone().unwrap_or_else(|| status_ok(&[]));
        assert_eq!(conds, want, "{name}: the status conditions");
        if let Some(cur) = self.cpu_current {
            let u = hpa
                .status
                .current_metrics
                .iter()
                .find_map(|m| m.resource.as_ref().filter(|r| r.name == "cpu"))
                .and_then(|r| r.current.average_utilization);
            assert_eq!(u, Some(cur), "{name}: the reported CPU utilization percentage");
        }
        let events: Vec<(String, String)> = r
            .api
            .events
            .iter()
            .map(|e| (e.reason.clone(), e.message.clone()))
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
            let want: Vec<(String, String)> =
                want.iter().map(|(r, m)| (r.to_string(), m.clone())).collect();
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
