//! Further row-by-row ports of the pure parts of
//! `pkg/controller/podautoscaler/horizontal_test.go` (TestStoreScaleEvents,
//! TestNormalizeDesiredReplicasWithBehavior) and of `pkg/apis/autoscaling/v2/defaults_test.go`
//! (TestGenerateScaleUpRules, TestGenerateScaleDownRules).
//!
//! Upstream takes `time.Now()` for the fixtures and again inside the functions; here one fixed
//! `NOW` serves both (no row sits on a cutoff, so the instant between them does not matter).

use super::*;
use crate::api::autoscaling::{
    copy_hpa_scaling_rules, default_scale_down_rules, default_scale_up_rules,
    HorizontalPodAutoscalerBehavior, HpaScalingPolicy,
};

use super::controller_tests::generate_scaling_rules;

const NOW: Time = Time(1_000_000_000);

fn ago(secs: i64) -> Time {
    NOW - Duration::from_secs(secs)
}

fn sev(change: i32, at: Time, outdated: bool) -> TimestampedScaleEvent {
    TimestampedScaleEvent {
        replica_change: change,
        timestamp: at,
        outdated,
    }
}

fn hpa_with_behavior(behavior: Option<HorizontalPodAutoscalerBehavior>) -> HorizontalPodAutoscaler {
    let mut h = HorizontalPodAutoscaler::default();
    h.spec.behavior = behavior;
    h
}

// Upstream: TestStoreScaleEvents (pkg/controller/podautoscaler/horizontal_test.go), every row:
// getReplicasChangePerPeriod(60, previous events), then storeScaleEvent with the rules on the
// scale-up side (prev 10 → 10+change) and on the scale-down side (prev 10 → 10-change); the
// stored events' replicaChange and outdated flags are compared.
#[test]
fn store_scale_events_table() {
    struct Row {
        name: &'static str,
        replica_change: i32,
        prev: Vec<TimestampedScaleEvent>,
        new: Vec<(i32, bool)>,
        rules: Option<HpaScalingRules>,
        expected_replicas_change: i32,
    }
    let rows = vec![
        Row {
            name: "empty entries with default behavior",
            replica_change: 5,
            prev: vec![],
            new: vec![],
            rules: None,
            expected_replicas_change: 0,
        },
        Row {
            name: "empty entries with two-policy-behavior",
            replica_change: 5,
            prev: vec![],
            new: vec![(5, false)],
            rules: Some(generate_scaling_rules(10, 60, 100, 60, 0)),
            expected_replicas_change: 0,
        },
        Row {
            name: "one outdated entry to be kept untouched without behavior",
            replica_change: 5,
            prev: vec![sev(7, ago(61), false)],
            new: vec![(7, false)],
            rules: None,
            expected_replicas_change: 0,
        },
        Row {
            name: "one outdated entry to be replaced with behavior",
            replica_change: 5,
            prev: vec![sev(7, ago(61), false)],
            new: vec![(5, false)],
            rules: Some(generate_scaling_rules(10, 60, 100, 60, 0)),
            expected_replicas_change: 0,
        },
        Row {
            name: "one actual entry to be not touched with behavior",
            replica_change: 5,
            prev: vec![sev(7, ago(58), false)],
            new: vec![(7, false), (5, false)],
            rules: Some(generate_scaling_rules(10, 60, 100, 60, 0)),
            expected_replicas_change: 7,
        },
        Row {
            name: "two entries, one of them to be replaced",
            replica_change: 5,
            prev: vec![sev(7, ago(61), false), sev(6, ago(59), false)],
            new: vec![(5, false), (6, false)],
            rules: Some(generate_scaling_rules(10, 60, 0, 0, 0)),
            expected_replicas_change: 6,
        },
        Row {
            name: "replace one entry, use policies with different periods",
            replica_change: 5,
            prev: vec![
                sev(8, ago(29), false),
                sev(6, ago(59), false),
                sev(7, ago(61), false),
                sev(9, ago(61), false),
            ],
            new: vec![(8, false), (6, false), (7, true), (5, false)],
            rules: Some(generate_scaling_rules(10, 60, 100, 30, 0)),
            expected_replicas_change: 14,
        },
        Row {
            name: "two entries, both actual",
            replica_change: 5,
            prev: vec![sev(7, ago(58), false), sev(6, ago(59), false)],
            new: vec![(7, false), (6, false), (5, false)],
            rules: Some(generate_scaling_rules(10, 120, 100, 30, 0)),
            expected_replicas_change: 13,
        },
    ];
    let key = "";
    for row in rows {
        let name = row.name;
        for up in [true, false] {
            let dir = if up { "up" } else { "down" };
            let behavior = row.rules.clone().map(|r| HorizontalPodAutoscalerBehavior {
                scale_up: up.then(|| r.clone()),
                scale_down: (!up).then_some(r),
            });
            let hpa = hpa_with_behavior(behavior);
            let mut hc = HorizontalController::default();
            let events = if up {
                &mut hc.scale_up_events
            } else {
                &mut hc.scale_down_events
            };
            events.insert(key.into(), row.prev.clone());
            assert_eq!(
                get_replicas_change_per_period(60, &events[key], NOW),
                row.expected_replicas_change,
                "{name} ({dir}): getReplicasChangePerPeriod"
            );
            let new = if up {
                10 + row.replica_change
            } else {
                10 - row.replica_change
            };
            hc.store_scale_event(&hpa, key, 10, new, NOW);
            let got: Vec<(i32, bool)> = if up {
                &hc.scale_up_events
            } else {
                &hc.scale_down_events
            }
            .get(key)
            .map(|v| v.iter().map(|e| (e.replica_change, e.outdated)).collect())
            .unwrap_or_default();
            assert_eq!(got, row.new, "{name} ({dir}): stored scale events");
        }
    }
}

// Upstream: TestNormalizeDesiredReplicasWithBehavior (horizontal_test.go), every row:
// stabilizeRecommendationWithBehaviors with only the stabilization windows set (0 when the row
// leaves them out); the stabilized replicas and the recommendations it leaves stored.
#[test]
fn normalize_desired_replicas_with_behavior_table() {
    struct Row {
        name: &'static str,
        recommendations: Vec<(i32, i64)>,
        current: i32,
        prenormalized: i32,
        expected_stabilized: i32,
        expected_recommendations: Option<Vec<i32>>,
        up_window: i32,
        down_window: i32,
    }
    let m = 60;
    let rows = vec![
        Row {
            name: "empty recommendations for scaling down",
            recommendations: vec![],
            current: 100,
            prenormalized: 5,
            expected_stabilized: 5,
            expected_recommendations: Some(vec![5]),
            up_window: 0,
            down_window: 0,
        },
        Row {
            name: "simple scale down stabilization",
            recommendations: vec![(4, 2 * m), (5, m)],
            current: 100,
            prenormalized: 3,
            expected_stabilized: 5,
            expected_recommendations: Some(vec![4, 5, 3]),
            up_window: 0,
            down_window: 60 * 3,
        },
        Row {
            name: "simple scale up stabilization",
            recommendations: vec![(4, 2 * m), (5, m)],
            current: 1,
            prenormalized: 7,
            expected_stabilized: 4,
            expected_recommendations: Some(vec![4, 5, 7]),
            up_window: 60 * 5,
            down_window: 0,
        },
        Row {
            name: "no scale down stabilization",
            recommendations: vec![(1, 2 * m), (2, m)],
            current: 100,
            prenormalized: 3,
            expected_stabilized: 3,
            expected_recommendations: Some(vec![1, 2, 3]),
            up_window: 60 * 5,
            down_window: 0,
        },
        Row {
            name: "no scale up stabilization",
            recommendations: vec![(4, 2 * m), (5, m)],
            current: 1,
            prenormalized: 3,
            expected_stabilized: 3,
            expected_recommendations: Some(vec![4, 5, 3]),
            up_window: 0,
            down_window: 60 * 5,
        },
        Row {
            name: "no scale down stabilization, reuse recommendation element",
            recommendations: vec![(10, 10 * m), (9, 9 * m)],
            current: 100,
            prenormalized: 3,
            expected_stabilized: 3,
            expected_recommendations: Some(vec![10, 3]),
            up_window: 0,
            down_window: 0,
        },
        Row {
            name: "no scale up stabilization, reuse recommendation element",
            recommendations: vec![(10, 10 * m), (9, 9 * m)],
            current: 1,
            prenormalized: 100,
            expected_stabilized: 100,
            expected_recommendations: Some(vec![10, 100]),
            up_window: 0,
            down_window: 0,
        },
        Row {
            name: "scale down stabilization, reuse one of obsolete recommendation element",
            recommendations: vec![(10, 10 * m), (4, m), (5, 2 * m), (9, 9 * m)],
            current: 100,
            prenormalized: 3,
            expected_stabilized: 5,
            expected_recommendations: Some(vec![10, 4, 5, 3]),
            up_window: 0,
            down_window: 3 * 60,
        },
        Row {
            name: "scale up stabilization, reuse one of obsolete recommendation element",
            recommendations: vec![(10, 100 * m), (6, m), (5, 2 * m), (9, 3 * m)],
            current: 1,
            prenormalized: 100,
            expected_stabilized: 5,
            expected_recommendations: Some(vec![100, 6, 5, 9]),
            up_window: 300,
            down_window: 0,
        },
        Row {
            name:
                "scale up and down stabilization, do not scale up when prenormalized rec goes down",
            recommendations: vec![(2, 100 * m), (3, 3 * m)],
            current: 2,
            prenormalized: 1,
            expected_stabilized: 2,
            expected_recommendations: None,
            up_window: 300,
            down_window: 300,
        },
        Row {
            name:
                "scale up and down stabilization, do not scale down when prenormalized rec goes up",
            recommendations: vec![(2, 100 * m), (1, 3 * m)],
            current: 2,
            prenormalized: 3,
            expected_stabilized: 2,
            expected_recommendations: None,
            up_window: 300,
            down_window: 300,
        },
    ];
    for row in rows {
        let window = |w: i32| HpaScalingRules {
            stabilization_window_seconds: Some(w),
            ..Default::default()
        };
        let args = NormalizationArg {
            scale_up_behavior: window(row.up_window),
            scale_down_behavior: window(row.down_window),
            min_replicas: 0,
            max_replicas: 0,
            current_replicas: row.current,
            desired_replicas: row.prenormalized,
        };
        let mut recs: Vec<TimestampedRecommendation> = row
            .recommendations
            .iter()
            .map(|(r, secs)| TimestampedRecommendation {
                recommendation: *r,
                timestamp: ago(*secs),
            })
            .collect();
        let (r, _, _) = stabilize_recommendation_with_behaviors(&mut recs, &args, NOW);
        assert_eq!(
            r, row.expected_stabilized,
            "{}: stabilized replicas",
            row.name
        );
        if let Some(want) = &row.expected_recommendations {
            let got: Vec<i32> = recs.iter().map(|r| r.recommendation).collect();
            assert_eq!(&got, want, "{}: stored recommendations", row.name);
        }
    }
}

/// The test's HPAScalingRules: the given policies (when any field of one is set), window and
/// select policy.
fn direction_rules(
    pods: (i32, i32),
    percent: (i32, i32),
    window: Option<i32>,
    select: Option<&str>,
) -> HpaScalingRules {
    let mut policies: Option<Vec<HpaScalingPolicy>> = None;
    if pods != (0, 0) {
        policies
            .get_or_insert_with(Vec::new)
            .push(HpaScalingPolicy {
                type_: "Pods".into(),
                value: pods.0,
                period_seconds: pods.1,
            });
    }
    if percent != (0, 0) {
        policies
            .get_or_insert_with(Vec::new)
            .push(HpaScalingPolicy {
                type_: "Percent".into(),
                value: percent.0,
                period_seconds: percent.1,
            });
    }
    HpaScalingRules {
        stabilization_window_seconds: window,
        select_policy: select.map(str::to_string),
        policies,
        tolerance: None,
    }
}

fn policy(t: &str, value: i32, period: i32) -> HpaScalingPolicy {
    HpaScalingPolicy {
        type_: t.into(),
        value,
        period_seconds: period,
    }
}

type GenRow = (
    &'static str,
    (i32, i32),
    (i32, i32),
    Option<i32>,
    Option<&'static str>,
    Vec<HpaScalingPolicy>,
    Option<i32>,
    &'static str,
);

// Upstream: TestGenerateScaleDownRules (pkg/apis/autoscaling/v2/defaults_test.go), every row:
// GenerateHPAScaleDownRules fills what the given rules leave unset from the defaults.
#[test]
fn generate_scale_down_rules_table() {
    let rows: Vec<GenRow> = vec![
        (
            "Default values",
            (0, 0),
            (0, 0),
            None,
            None,
            vec![policy("Percent", 100, 15)],
            None,
            "Max",
        ),
        (
            "All parameters are specified",
            (1, 2),
            (3, 4),
            Some(25),
            Some("Max"),
            vec![policy("Pods", 1, 2), policy("Percent", 3, 4)],
            Some(25),
            "Max",
        ),
        (
            "Percent policy is specified",
            (0, 0),
            (1, 2),
            None,
            Some("Min"),
            vec![policy("Percent", 1, 2)],
            None,
            "Min",
        ),
        (
            "Pods policy is specified",
            (3, 4),
            (0, 0),
            None,
            None,
            vec![policy("Pods", 3, 4)],
            None,
            "Max",
        ),
    ];
    for (name, pods, percent, window, select, policies, want_window, want_select) in rows {
        let given = direction_rules(pods, percent, window, select);
        let down = copy_hpa_scaling_rules(Some(&given), default_scale_down_rules());
        assert_eq!(down.policies, Some(policies), "{name}: policies");
        assert_eq!(down.stabilization_window_seconds, want_window, "{name}");
        assert_eq!(down.select_policy.as_deref(), Some(want_select), "{name}");
    }
}

// Upstream: TestGenerateScaleUpRules (pkg/apis/autoscaling/v2/defaults_test.go), every row.
#[test]
fn generate_scale_up_rules_table() {
    let rows: Vec<GenRow> = vec![
        (
            "Default values",
            (0, 0),
            (0, 0),
            None,
            None,
            vec![policy("Pods", 4, 15), policy("Percent", 100, 15)],
            Some(0),
            "Max",
        ),
        (
            "All parameters are specified",
            (1, 2),
            (3, 4),
            Some(25),
            Some("Max"),
            vec![policy("Pods", 1, 2), policy("Percent", 3, 4)],
            Some(25),
            "Max",
        ),
        (
            "Pod policy is specified",
            (1, 2),
            (0, 0),
            None,
            Some("Min"),
            vec![policy("Pods", 1, 2)],
            Some(0),
            "Min",
        ),
        (
            "Percent policy is specified",
            (0, 0),
            (7, 10),
            None,
            None,
            vec![policy("Percent", 7, 10)],
            Some(0),
            "Max",
        ),
        (
            "Pod policy and stabilization window are specified",
            (4, 2),
            (0, 0),
            Some(25),
            None,
            vec![policy("Pods", 4, 2)],
            Some(25),
            "Max",
        ),
        (
            "Percent policy and stabilization window are specified",
            (0, 0),
            (7, 60),
            Some(25),
            None,
            vec![policy("Percent", 7, 60)],
            Some(25),
            "Max",
        ),
    ];
    for (name, pods, percent, window, select, policies, want_window, want_select) in rows {
        let given = direction_rules(pods, percent, window, select);
        let up = copy_hpa_scaling_rules(Some(&given), default_scale_up_rules());
        assert_eq!(up.policies, Some(policies), "{name}: policies");
        assert_eq!(up.stabilization_window_seconds, want_window, "{name}");
        assert_eq!(up.select_policy.as_deref(), Some(want_select), "{name}");
    }
}

// The hpaSelectors bookkeeping. Upstream's tests for it (hpa_selector_store_test.go) come from
// after 1.35, where the BiMultimap became an hpaSelectorStore; the behaviour they pin is 1.35's:
// enqueueHPA registers an HPA with the Nothing selector only if absent, validateAndParseSelector
// records the parsed selector only if the HPA is registered, deleteHPA drops it, and
// hpasControllingPodsUnderSelector only looks at the pods' namespace.

mod selector_store {
    use super::*;
    use crate::api::{ObjectMeta, Pod};
    use crate::store::apiserver::ApiServer;

    fn sel(s: &str) -> Selector {
        Selector::parse(s).unwrap()
    }

    fn hpa(ns: &str, name: &str) -> HorizontalPodAutoscaler {
        let mut h = HorizontalPodAutoscaler::default();
        h.metadata.namespace = ns.into();
        h.metadata.name = name.into();
        h
    }

    fn api_with_pod(ns: &str, name: &str, app: &str) -> ApiServer {
        let mut api = ApiServer::new(1, NOW);
        let mut p = Pod {
            metadata: ObjectMeta {
                name: name.into(),
                namespace: ns.into(),
                labels: [("app".to_string(), app.to_string())].into(),
                ..Default::default()
            },
            ..Default::default()
        };
        p.spec_mut().containers = vec![crate::api::Container {
            name: "c".into(),
            image: "img".into(),
            ..Default::default()
        }];
        api.load(crate::api::Object::Pod(p)).expect("pod loads");
        api
    }

    /// The HPAs (keys) whose selectors pick the pods `pod_selector` picks in `ns`.
    fn matching(
        hc: &HorizontalController,
        api: &ApiServer,
        ns: &str,
        pod_selector: &str,
    ) -> Vec<String> {
        hc.hpas_controlling_pods_under_selector(&api.store, &hpa(ns, "any"), &sel(pod_selector))
    }

    // Upstream: TestHPASelectorStorePutIfAbsent: registering again (an HPA update goes through
    // enqueueHPA) does not overwrite the selector the reconcile recorded.
    #[test]
    fn put_if_absent() {
        let mut hc = HorizontalController::new();
        let mut q = crate::queue::WorkQueue::new();
        hc.enqueue_hpa("ns-1/hpa-1", &mut q, NOW);
        // The reconcile records the parsed selector (PutIfPresent).
        *hc.hpa_selectors.get_mut("ns-1/hpa-1").unwrap() = Some(sel("app=hakuna"));
        hc.enqueue_hpa("ns-1/hpa-1", &mut q, NOW);
        let api = api_with_pod("ns-1", "pod-1", "hakuna");
        assert_eq!(
            matching(&hc, &api, "ns-1", "app=hakuna"),
            vec!["ns-1/hpa-1"]
        );
        let api = api_with_pod("ns-1", "pod-2", "matata");
        assert!(matching(&hc, &api, "ns-1", "app=matata").is_empty());
    }

    // Upstream: TestHPASelectorStoreDeleteCleansUpNamespace: deleteHPA removes the HPA's entry.
    #[test]
    fn delete_removes_the_entry() {
        use crate::controllers::Controller;
        let mut hc = HorizontalController::new();
        let mut q = crate::queue::WorkQueue::new();
        let api = ApiServer::new(1, NOW);
        for name in ["hpa-1", "hpa-2"] {
            hc.enqueue_hpa(&format!("ns-1/{name}"), &mut q, NOW);
            *hc.hpa_selectors.get_mut(&format!("ns-1/{name}")).unwrap() = Some(sel("app=hakuna"));
        }
        let gone = crate::store::Change {
            old: Some(std::sync::Arc::new(hpa("ns-1", "hpa-1").into_object())),
            new: None,
        };
        hc.watch(&gone, &api.store, &mut q, NOW);
        assert_eq!(
            hc.hpa_selectors.keys().collect::<Vec<_>>(),
            vec!["ns-1/hpa-2"]
        );
        let gone = crate::store::Change {
            old: Some(std::sync::Arc::new(hpa("ns-1", "hpa-2").into_object())),
            new: None,
        };
        hc.watch(&gone, &api.store, &mut q, NOW);
        assert!(hc.hpa_selectors.is_empty());
    }

    // Upstream: TestHPASelectorStoreHPAsMatchingPodsLimit (without a limit, as 1.35 has none)
    // and TestHPASelectorStoreHPAsMatchingPodsNamespaceIsolation: every HPA of the pods'
    // namespace whose selector picks them, none from another namespace.
    #[test]
    fn matching_pods_all_hpas_of_the_namespace_only() {
        let mut hc = HorizontalController::new();
        let mut q = crate::queue::WorkQueue::new();
        for key in ["ns-1/hpa-1", "ns-1/hpa-2", "ns-2/hpa-3"] {
            hc.enqueue_hpa(key, &mut q, NOW);
            *hc.hpa_selectors.get_mut(key).unwrap() = Some(sel("app=hakuna"));
        }
        let api = api_with_pod("ns-1", "pod-1", "hakuna");
        assert_eq!(
            matching(&hc, &api, "ns-1", "app=hakuna"),
            vec!["ns-1/hpa-1", "ns-1/hpa-2"]
        );
        assert!(matching(&hc, &api, "ns-3", "app=hakuna").is_empty());
        // Registered but not yet reconciled: the Nothing selector picks no pod.
        hc.enqueue_hpa("ns-1/hpa-4", &mut q, NOW);
        assert_eq!(matching(&hc, &api, "ns-1", "app=hakuna").len(), 2);
    }
}
