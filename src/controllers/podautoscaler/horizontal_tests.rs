//! Ports of the pure parts of `pkg/controller/podautoscaler/horizontal_test.go`, and properties.

use super::*;
use crate::api::autoscaling::HpaScalingPolicy;
use crate::controllers::podautoscaler::replica_calculator::Tolerances;

const NOW: Time = Time(1_000_000_000);

fn rules(select: &str, window: i32, policies: &[(&str, i32, i32)]) -> HpaScalingRules {
    HpaScalingRules {
        stabilization_window_seconds: Some(window),
        select_policy: Some(select.into()),
        policies: Some(
            policies
                .iter()
                .map(|(t, v, p)| HpaScalingPolicy {
                    type_: (*t).into(),
                    value: *v,
                    period_seconds: *p,
                })
                .collect(),
        ),
        tolerance: None,
    }
}

fn ev(change: i32, secs_ago: i64) -> TimestampedScaleEvent {
    TimestampedScaleEvent {
        replica_change: change,
        timestamp: NOW - Duration::from_secs(secs_ago),
        outdated: false,
    }
}

// Port of TestConvertDesiredReplicasWithRules.
#[test]
fn convert_desired_replicas_with_rules_table() {
    let cases = [
        (5, 7, 3, 8, 7, "DesiredWithinRange"),
        (3, 1, 2, 8, 2, "TooFewReplicas"),
        (1, 0, 0, 10, 0, "DesiredWithinRange"),
        (20, 1000, 1, 10, 10, "TooManyReplicas"),
        (
            3,
            1000,
            1,
            2000,
            calculate_scale_up_limit(3),
            "ScaleUpLimit",
        ),
    ];
    for (cur, desired, min, max, want, cond) in cases {
        let (got, c, _) = convert_desired_replicas_with_rules(cur, desired, min, max);
        assert_eq!((got, c), (want, cond), "{cur} {desired} {min} {max}");
    }
    assert_eq!(calculate_scale_up_limit(1), 4);
    assert_eq!(calculate_scale_up_limit(3), 6);
    assert_eq!(calculate_scale_up_limit(7), 14);
}

// Ports of TestCalculateScaleUpLimitWithScalingRules and TestCalculateScaleDownLimitWithBehaviors.
#[test]
fn scale_limits_with_min_select_policy() {
    let r = rules("Min", 300, &[("Pods", 2, 60), ("Percent", 50, 60)]);
    assert_eq!(
        calculate_scale_up_limit_with_scaling_rules(1, &[], &[], &r, NOW),
        2
    );
    assert_eq!(
        calculate_scale_down_limit_with_behaviors(5, &[], &[], &r, NOW),
        3
    );
}

// Modelled on TestScalingWithRules (horizontal_test.go): the limits count from the replicas
// at the start of each policy's period.
#[test]
fn policies_count_from_the_start_of_their_period() {
    // Default scale-up rules: max(4 pods, 100 %) per 15 s.
    let up = crate::api::autoscaling::default_scale_up_rules();
    assert_eq!(
        calculate_scale_up_limit_with_scaling_rules(5, &[], &[], &up, NOW),
        10
    );
    assert_eq!(
        calculate_scale_up_limit_with_scaling_rules(1, &[], &[], &up, NOW),
        5
    );
    // 2 pods per minute, 1 added 30 s ago: the period started at 4, so at most 6.
    let r = rules("Max", 0, &[("Pods", 2, 60)]);
    assert_eq!(
        calculate_scale_up_limit_with_scaling_rules(5, &[ev(1, 30)], &[], &r, NOW),
        6
    );
    // The event is older than the period: it no longer counts.
    assert_eq!(
        calculate_scale_up_limit_with_scaling_rules(5, &[ev(1, 61)], &[], &r, NOW),
        7
    );
    // Scale-downs inside the period raise the period's starting point.
    assert_eq!(
        calculate_scale_up_limit_with_scaling_rules(5, &[], &[ev(2, 10)], &r, NOW),
        9
    );
    // 50 % per minute down, 4 removed 20 s ago from 10: floor(10 × 0.5) = 5.
    let d = rules("Max", 0, &[("Percent", 50, 60)]);
    assert_eq!(
        calculate_scale_down_limit_with_behaviors(6, &[], &[ev(4, 20)], &d, NOW),
        5
    );
    // Disabled never moves.
    let off = rules("Disabled", 0, &[("Pods", 2, 60)]);
    assert_eq!(
        calculate_scale_up_limit_with_scaling_rules(5, &[], &[], &off, NOW),
        5
    );
    assert_eq!(
        calculate_scale_down_limit_with_behaviors(5, &[], &[], &off, NOW),
        5
    );
}

fn arg(
    cur: i32,
    desired: i32,
    min: i32,
    max: i32,
    up: HpaScalingRules,
    down: HpaScalingRules,
) -> NormalizationArg {
    NormalizationArg {
        scale_up_behavior: up,
        scale_down_behavior: down,
        min_replicas: min,
        max_replicas: max,
        current_replicas: cur,
        desired_replicas: desired,
    }
}

// Modelled on TestNormalizeDesiredReplicasWithBehavior: reasons and limits.
#[test]
fn behavior_rate_reasons() {
    let up = rules("Max", 0, &[("Pods", 2, 60)]);
    let down = rules("Max", 300, &[("Pods", 1, 60)]);
    let (r, reason, _) = convert_desired_replicas_with_behavior_rate(
        &arg(3, 10, 1, 20, up.clone(), down.clone()),
        &[],
        &[],
        NOW,
    );
    assert_eq!((r, reason), (5, "ScaleUpLimit"));
    let (r, reason, _) = convert_desired_replicas_with_behavior_rate(
        &arg(3, 10, 1, 4, up.clone(), down.clone()),
        &[],
        &[],
        NOW,
    );
    assert_eq!((r, reason), (4, "TooManyReplicas"));
    let (r, reason, _) = convert_desired_replicas_with_behavior_rate(
        &arg(5, 1, 1, 20, up.clone(), down.clone()),
        &[],
        &[],
        NOW,
    );
    assert_eq!((r, reason), (4, "ScaleDownLimit"));
    let (r, reason, _) = convert_desired_replicas_with_behavior_rate(
        &arg(5, 1, 5, 20, up.clone(), down.clone()),
        &[],
        &[],
        NOW,
    );
    assert_eq!((r, reason), (5, "TooFewReplicas"));
    let (r, reason, _) =
        convert_desired_replicas_with_behavior_rate(&arg(5, 6, 1, 20, up, down), &[], &[], NOW);
    assert_eq!((r, reason), (6, "DesiredWithinRange"));
}

// Modelled on TestStabilizeRecommendationWithBehaviors.
#[test]
fn stabilization_with_behaviors() {
    let up = rules("Max", 60, &[("Pods", 4, 15)]);
    let down = rules("Max", 300, &[("Percent", 100, 15)]);
    let rec = |r: i32, ago: i64| TimestampedRecommendation {
        recommendation: r,
        timestamp: NOW - Duration::from_secs(ago),
    };
    // Scale down: the highest recommendation of the last 300 s wins.
    let mut recs = vec![rec(8, 100), rec(5, 400)];
    let (r, reason, _) = stabilize_recommendation_with_behaviors(
        &mut recs,
        &arg(6, 2, 1, 10, up.clone(), down.clone()),
        NOW,
    );
    assert_eq!(
        (r, reason),
        (6, "ScaleDownStabilized"),
        "never above current"
    );
    let mut recs = vec![rec(4, 100), rec(9, 400)];
    let (r, _, _) = stabilize_recommendation_with_behaviors(
        &mut recs,
        &arg(6, 2, 1, 10, up.clone(), down.clone()),
        NOW,
    );
    assert_eq!(r, 4);
    assert!(recs
        .iter()
        .any(|x| x.recommendation == 2 && x.timestamp == NOW));
    assert_eq!(
        recs.len(),
        2,
        "the obsolete sample (400 s old) was replaced"
    );
    // Scale up: the lowest recommendation of the last 60 s wins.
    let mut recs = vec![rec(7, 30), rec(3, 90)];
    let (r, reason, _) =
        stabilize_recommendation_with_behaviors(&mut recs, &arg(5, 9, 1, 10, up, down), NOW);
    assert_eq!((r, reason), (7, "ScaleUpStabilized"));
}

// Modelled on TestStoreScaleEvents: outdated events are reused.
#[test]
fn store_scale_events_reuses_outdated_slots() {
    let mut evs = vec![ev(1, 100), ev(2, 10)];
    store_scale_event_in(&mut evs, 60, 3, NOW);
    assert_eq!(evs.len(), 2);
    assert_eq!(evs[0].replica_change, 3);
    assert_eq!(evs[0].timestamp, NOW);
    store_scale_event_in(&mut evs, 60, 4, NOW);
    assert_eq!(evs.len(), 3);
}

#[test]
fn legacy_stabilization_keeps_the_highest_recent_recommendation() {
    let w = Duration::from_secs(300);
    let mut recs = vec![];
    assert_eq!(stabilize_recommendation(&mut recs, 10, w, NOW), 10);
    assert_eq!(
        stabilize_recommendation(&mut recs, 3, w, NOW + Duration::from_secs(299)),
        10
    );
    assert_eq!(
        stabilize_recommendation(&mut recs, 3, w, NOW + Duration::from_secs(301)),
        3
    );
}

proptest::proptest! {
    /// Whatever the current count and proposal, the normalized replicas stay within
    /// `[min, max]`, and a proposal equal to the current count (what the calculator returns
    /// inside the tolerance) never changes anything.
    #[test]
    fn normalized_replicas_stay_in_range(
        cur in 1i32..50, desired in 0i32..200, min in 1i32..20, span in 0i32..40,
        history in proptest::collection::vec((0i32..100, 0i64..600), 0..8),
        behavior in proptest::bool::ANY,
    ) {
        let max = min + span;
        let cur = cur.clamp(min, max);
        let mut c = HorizontalController::new();
        let key = "default/h";
        c.recommendations.insert(key.into(), history.iter().map(|(r, ago)| TimestampedRecommendation {
            recommendation: *r, timestamp: NOW - Duration::from_secs(*ago) }).collect());
        let mut hpa = HorizontalPodAutoscaler::default();
        hpa.spec.max_replicas = max;
        hpa.spec.min_replicas = Some(min);
        if behavior {
            hpa.spec.behavior = Some(crate::api::autoscaling::HorizontalPodAutoscalerBehavior {
                scale_up: Some(rules("Max", 0, &[("Pods", 3, 60)])),
                scale_down: Some(rules("Min", 120, &[("Percent", 30, 60)])),
            });
        }
        let got = if behavior {
            c.normalize_desired_replicas_with_behaviors(&mut hpa, key, cur, desired, min, NOW)
        } else {
            c.normalize_desired_replicas(&mut hpa, key, cur, desired, min, NOW)
        };
        proptest::prop_assert!(got >= min && got <= max, "{got} not in [{min}, {max}]");
        let mut c2 = HorizontalController::new();
        let got = if behavior {
            c2.normalize_desired_replicas_with_behaviors(&mut hpa, key, cur, cur, min, NOW)
        } else {
            c2.normalize_desired_replicas(&mut hpa, key, cur, cur, min, NOW)
        };
        proptest::prop_assert_eq!(got, cur);
    }

    /// Inside the tolerance the calculator returns the current count.
    #[test]
    fn no_change_inside_the_tolerance(cur in 1i32..20, target in 10i32..200, delta in -9i32..=9) {
        use crate::scenario::load::PodMetric;
        // Utilization = target × (1 + delta/100): |ratio − 1| ≤ 0.09.
        let util = i64::from(target) * i64::from(100 + delta) / 100;
        proptest::prop_assume!(((util as f64) / f64::from(target) - 1.0).abs() <= 0.1);
        let pods: Vec<Pod> = (0..cur).map(|i| {
            let mut p = Pod::default();
            p.metadata.name = format!("p{i}");
            p.status.phase = "Running".into();
            p.status.start_time = Some(Time(0));
            p.status.conditions = vec![crate::api::PodCondition { type_: "Ready".into(), status: "True".into(), ..Default::default() }];
            p.spec_mut().containers = vec![crate::api::Container { name: "c".into(), resources: Some(crate::api::ResourceRequirements {
                requests: [("cpu".to_string(), crate::api::Quantity("1".into()))].into_iter().collect(), ..Default::default() }), ..Default::default() }];
            p
        }).collect();
        let refs: Vec<&Pod> = pods.iter().collect();
        let metrics = pods.iter().map(|p| (p.metadata.name.clone(), PodMetric { value: util * 10, timestamp: NOW, window: Duration::from_secs(15) })).collect();
        let (r, _, _) = ReplicaCalculator::default().get_resource_replicas(cur, target, "cpu", Tolerances::uniform(0.1), &refs, &metrics, NOW).unwrap();
        proptest::prop_assert_eq!(r, cur);
    }
}

/// `generateScalingRules`: a Max-select rule with an optional Pods and Percent policy.
fn gen_rules(pods: i32, pods_p: i32, percent: i32, percent_p: i32, window: i32) -> HpaScalingRules {
    let mut policies = vec![];
    if pods != 0 {
        policies.push(HpaScalingPolicy {
            type_: "Pods".into(),
            value: pods,
            period_seconds: pods_p,
        });
    }
    if percent != 0 {
        policies.push(HpaScalingPolicy {
            type_: "Percent".into(),
            value: percent,
            period_seconds: percent_p,
        });
    }
    HpaScalingRules {
        stabilization_window_seconds: Some(window),
        select_policy: Some("Max".into()),
        policies: (!policies.is_empty()).then_some(policies),
        tolerance: None,
    }
}

/// `generateEventsUniformDistribution`: events spread over the last `period` seconds, each in
/// the middle of its segment (whole seconds, as Go's `time.Duration(float)` truncates).
fn uniform_events(raw: &[i32], period: i64) -> Vec<TimestampedScaleEvent> {
    let seg = period as f64 / raw.len() as f64;
    raw.iter()
        .enumerate()
        .map(|(i, c)| {
            let ago = (period as f64 - seg * (i + 1) as f64 + seg / 2.0) as i64;
            ev(*c, ago)
        })
        .collect()
}

// Port of TestScalingWithRules (convertDesiredReplicasWithBehaviorRate), every row but the one
// upstream skips (`testThis`). Rules go through GenerateHPAScaleUpRules /
// GenerateHPAScaleDownRules (the defaults under the given fields).
#[test]
fn scaling_with_rules_table() {
    type Row = (
        &'static str,
        Vec<TimestampedScaleEvent>,
        Vec<TimestampedScaleEvent>,
        i32,
        i32,
        Option<HpaScalingRules>,
        Option<HpaScalingRules>,
        i32,
        i32,
        i32,
        &'static str,
    );
    let e = |r: &[i32]| uniform_events(r, 120);
    let rows: Vec<Row> = vec![
        (
            "within range",
            vec![],
            vec![],
            3,
            8,
            None,
            None,
            5,
            7,
            7,
            "DesiredWithinRange",
        ),
        (
            "< minReplicas",
            vec![],
            vec![],
            2,
            8,
            None,
            None,
            3,
            1,
            2,
            "TooFewReplicas",
        ),
        (
            "within range when minReplicas is 0",
            vec![],
            vec![],
            0,
            10,
            None,
            None,
            1,
            0,
            0,
            "DesiredWithinRange",
        ),
        (
            "maxReplicas < scaleUpLimit",
            vec![],
            vec![],
            1,
            10,
            None,
            None,
            20,
            1000,
            10,
            "TooManyReplicas",
        ),
        (
            "more than the maximum",
            vec![],
            vec![],
            100,
            150,
            None,
            None,
            100,
            1000,
            150,
            "TooManyReplicas",
        ),
        (
            "scaleUpLimit < maxReplicas with user policies",
            vec![],
            vec![],
            1,
            2000,
            Some(gen_rules(0, 0, 1, 60, 0)),
            None,
            3,
            1000,
            4,
            "ScaleUpLimit",
        ),
        (
            "scaleUp with default behavior",
            vec![],
            vec![],
            1,
            1000,
            None,
            None,
            10,
            50,
            20,
            "ScaleUpLimit",
        ),
        (
            "pods policy larger than percent policy",
            vec![],
            vec![],
            1,
            1000,
            Some(gen_rules(100, 60, 100, 60, 0)),
            None,
            10,
            500,
            110,
            "ScaleUpLimit",
        ),
        (
            "percent policy larger than pods policy",
            vec![],
            vec![],
            1,
            1000,
            Some(gen_rules(2, 60, 100, 60, 0)),
            None,
            10,
            500,
            20,
            "ScaleUpLimit",
        ),
        (
            "MaxReplicas limitation with large pod policy",
            vec![],
            vec![],
            1,
            1000,
            Some(gen_rules(100, 60, 0, 0, 0)),
            None,
            10,
            50,
            50,
            "DesiredWithinRange",
        ),
        (
            "MaxReplicas limitation with large percent policy",
            vec![],
            vec![],
            1,
            1000,
            Some(gen_rules(10000, 60, 0, 0, 0)),
            None,
            10,
            50,
            50,
            "DesiredWithinRange",
        ),
        (
            "scaleUp with pod policy limitation",
            vec![],
            vec![],
            1,
            1000,
            Some(gen_rules(30, 60, 0, 0, 0)),
            None,
            10,
            50,
            40,
            "ScaleUpLimit",
        ),
        (
            "scaleUp with percent policy limitation",
            vec![],
            vec![],
            1,
            1000,
            Some(gen_rules(0, 0, 200, 60, 0)),
            None,
            10,
            50,
            30,
            "ScaleUpLimit",
        ),
        (
            "scaleDown percent larger than pod",
            vec![],
            vec![],
            1,
            1000,
            None,
            Some(gen_rules(20, 60, 1, 60, 300)),
            100,
            2,
            80,
            "ScaleDownLimit",
        ),
        (
            "scaleDown pod larger than percent",
            vec![],
            vec![],
            1,
            1000,
            None,
            Some(gen_rules(2, 60, 1, 60, 300)),
            100,
            2,
            98,
            "ScaleDownLimit",
        ),
        (
            "scaleDown MinReplicas=nil with large pod policy",
            vec![],
            vec![],
            1,
            1000,
            None,
            Some(gen_rules(100, 60, 0, 0, 300)),
            10,
            0,
            1,
            "TooFewReplicas",
        ),
        (
            "scaleDown MinReplicas with large pod policy",
            vec![],
            vec![],
            1,
            1000,
            None,
            Some(gen_rules(100, 60, 0, 0, 300)),
            10,
            0,
            1,
            "TooFewReplicas",
        ),
        (
            "scaleDown MinReplicas with large percent policy",
            vec![],
            vec![],
            5,
            1000,
            None,
            Some(gen_rules(0, 0, 100, 60, 300)),
            10,
            2,
            5,
            "TooFewReplicas",
        ),
        (
            "scaleDown with pod policy limitation",
            vec![],
            vec![],
            1,
            1000,
            None,
            Some(gen_rules(5, 60, 0, 0, 300)),
            10,
            2,
            5,
            "ScaleDownLimit",
        ),
        (
            "scaleDown with percent policy limitation",
            vec![],
            vec![],
            1,
            1000,
            None,
            Some(gen_rules(0, 0, 50, 60, 300)),
            10,
            5,
            5,
            "DesiredWithinRange",
        ),
        (
            "MaxReplicas with large pod policy and events",
            e(&[1, 5, 9]),
            vec![],
            1,
            200,
            Some(gen_rules(300, 60, 0, 0, 0)),
            None,
            100,
            500,
            200,
            "TooManyReplicas",
        ),
        (
            "MaxReplicas with large percent policy and events",
            e(&[1, 5, 9]),
            vec![],
            1,
            200,
            Some(gen_rules(0, 0, 10000, 60, 0)),
            None,
            100,
            500,
            200,
            "TooManyReplicas",
        ),
        (
            "currentReplicas limitation with many recent scale ups",
            e(&[1, 5, 9]),
            vec![],
            1,
            1000,
            Some(gen_rules(5, 120, 0, 0, 0)),
            None,
            100,
            500,
            100,
            "ScaleUpLimit",
        ),
        (
            "pod policy and previous scale up events",
            e(&[1, 5, 9]),
            vec![],
            1,
            1000,
            Some(gen_rules(150, 120, 0, 0, 0)),
            None,
            100,
            500,
            235,
            "ScaleUpLimit",
        ),
        (
            "percent policy and previous scale up events",
            e(&[1, 5, 9]),
            vec![],
            1,
            1000,
            Some(gen_rules(0, 0, 200, 120, 0)),
            None,
            100,
            500,
            255,
            "ScaleUpLimit",
        ),
        (
            "percent policy and previous up and down events",
            e(&[4]),
            e(&[2]),
            1,
            1000,
            Some(gen_rules(0, 0, 300, 300, 0)),
            None,
            6,
            24,
            16,
            "ScaleUpLimit",
        ),
        (
            "scaleDown default policy and previous events",
            vec![],
            e(&[1, 5, 9]),
            1,
            1000,
            None,
            None,
            10,
            5,
            5,
            "DesiredWithinRange",
        ),
        (
            "scaleDown MinReplicas=nil large pod policy and events",
            vec![],
            e(&[1, 5, 9]),
            1,
            1000,
            None,
            Some(gen_rules(115, 120, 0, 0, 300)),
            100,
            0,
            1,
            "TooFewReplicas",
        ),
        (
            "scaleDown MinReplicas large pod policy and events",
            vec![],
            e(&[1, 5, 9]),
            5,
            1000,
            None,
            Some(gen_rules(130, 120, 0, 0, 300)),
            100,
            0,
            5,
            "TooFewReplicas",
        ),
        (
            "scaleDown MinReplicas large percent policy and events",
            vec![],
            e(&[1, 5, 9]),
            5,
            1000,
            None,
            Some(gen_rules(0, 0, 100, 120, 300)),
            100,
            2,
            5,
            "TooFewReplicas",
        ),
        (
            "scaleDown pod policy limitation and events",
            vec![],
            e(&[1, 5, 9]),
            1,
            1000,
            None,
            Some(gen_rules(5, 120, 0, 0, 300)),
            100,
            2,
            100,
            "ScaleDownLimit",
        ),
        (
            "scaleDown percent policy limitation and events",
            vec![],
            e(&[2, 4, 6]),
            1,
            1000,
            None,
            Some(gen_rules(0, 0, 50, 120, 300)),
            100,
            0,
            56,
            "ScaleDownLimit",
        ),
        (
            "scaleDown percent policy and up and down events",
            e(&[2]),
            e(&[4]),
            1,
            1000,
            None,
            Some(gen_rules(0, 0, 50, 180, 0)),
            10,
            1,
            6,
            "ScaleDownLimit",
        ),
        (
            "previous events preventing further scale down",
            vec![],
            e(&[10, 10, 10]),
            1,
            1000,
            None,
            Some(gen_rules(0, 0, 10, 120, 300)),
            100,
            0,
            100,
            "ScaleDownLimit",
        ),
        (
            "previous events still allowing more scale down",
            vec![],
            e(&[10, 10, 10]),
            1,
            1000,
            None,
            Some(gen_rules(0, 0, 1000, 120, 300)),
            10,
            5,
            5,
            "DesiredWithinRange",
        ),
        (
            "outdated flag, one policy, up",
            e(&[8, 12, 9, 11]),
            vec![],
            1,
            1000,
            Some(gen_rules(1000, 60, 0, 0, 0)),
            None,
            100,
            200,
            200,
            "DesiredWithinRange",
        ),
        (
            "not outdated, two policies, up",
            e(&[8, 12, 9, 11]),
            vec![],
            1,
            1000,
            Some(gen_rules(1000, 120, 100, 60, 0)),
            None,
            100,
            200,
            200,
            "DesiredWithinRange",
        ),
        (
            "outdated, two policies, up",
            e(&[8, 12, 9, 11]),
            vec![],
            1,
            1000,
            Some(gen_rules(1000, 30, 100, 60, 0)),
            None,
            100,
            200,
            200,
            "DesiredWithinRange",
        ),
        (
            "outdated flag, one policy, down",
            vec![],
            e(&[8, 12, 9, 11]),
            1,
            1000,
            None,
            Some(gen_rules(1000, 60, 0, 0, 300)),
            100,
            5,
            5,
            "DesiredWithinRange",
        ),
        (
            "not outdated, two policies, down",
            vec![],
            e(&[8, 12, 9, 11]),
            1,
            1000,
            None,
            Some(gen_rules(1000, 120, 100, 60, 300)),
            100,
            5,
            5,
            "DesiredWithinRange",
        ),
        (
            "outdated, two policies, down",
            vec![],
            e(&[8, 12, 9, 11]),
            1,
            1000,
            None,
            Some(gen_rules(1000, 30, 100, 60, 300)),
            100,
            5,
            5,
            "DesiredWithinRange",
        ),
    ];
    for (name, up_ev, down_ev, min, max, up, down, cur, desired, want, cond) in rows {
        let args = NormalizationArg {
            scale_up_behavior: crate::api::autoscaling::copy_hpa_scaling_rules(
                up.as_ref(),
                crate::api::autoscaling::default_scale_up_rules(),
            ),
            scale_down_behavior: crate::api::autoscaling::copy_hpa_scaling_rules(
                down.as_ref(),
                crate::api::autoscaling::default_scale_down_rules(),
            ),
            min_replicas: min,
            max_replicas: max,
            current_replicas: cur,
            desired_replicas: desired,
        };
        let (got, c, _) = convert_desired_replicas_with_behavior_rate(&args, &up_ev, &down_ev, NOW);
        assert_eq!((got, c), (want, cond), "{name}");
    }
}

// Port of TestNormalizeDesiredReplicas (stabilizeRecommendation without behavior): the result and
// the length of the recommendation log afterwards.
#[test]
fn normalize_desired_replicas_table() {
    let m = |mins: i64| NOW - Duration::from_secs(mins * 60);
    let rec = |r: i32, t: Time| TimestampedRecommendation {
        recommendation: r,
        timestamp: t,
    };
    let cases = vec![
        ("empty log", vec![], 5, 5, 1),
        ("stabilize", vec![rec(4, m(2)), rec(5, m(1))], 3, 5, 3),
        ("no stabilize", vec![rec(1, m(2)), rec(2, m(1))], 3, 3, 3),
        (
            "no stabilize - old recommendations",
            vec![rec(10, m(10)), rec(9, m(9))],
            3,
            3,
            2,
        ),
        (
            "stabilize - old recommendations",
            vec![rec(10, m(10)), rec(4, m(1)), rec(5, m(2)), rec(9, m(9))],
            3,
            5,
            4,
        ),
    ];
    for (name, mut recs, pre, want, len) in cases {
        let got = stabilize_recommendation(&mut recs, pre, Duration::from_secs(300), NOW);
        assert_eq!((got, recs.len()), (want, len), "{name}");
    }
}

// tolerancesForHpa: the controller's tolerance both ways unless the HPA's behavior sets one per
// direction and HPAConfigurableTolerance is on (the 1.35 default).
#[test]
fn tolerances_for_hpa_reads_behavior_when_the_gate_is_on() {
    use crate::api::autoscaling::{HorizontalPodAutoscaler, HorizontalPodAutoscalerBehavior};
    use crate::features::FeatureGates;
    let c = HorizontalController::new();
    let mut hpa = HorizontalPodAutoscaler::default();
    let on = FeatureGates::default();
    assert_eq!(c.tolerances_for_hpa(&hpa, &on), Tolerances::uniform(0.1));
    hpa.spec.behavior = Some(HorizontalPodAutoscalerBehavior {
        scale_up: Some(HpaScalingRules {
            tolerance: Some(crate::api::Quantity("50m".into())),
            ..rules("Max", 0, &[("Pods", 4, 15)])
        }),
        scale_down: Some(HpaScalingRules {
            tolerance: Some(crate::api::Quantity("0.5".into())),
            ..rules("Max", 300, &[("Percent", 100, 15)])
        }),
    });
    let t = c.tolerances_for_hpa(&hpa, &on);
    assert!(
        (t.scale_up - 0.05).abs() < 1e-12 && (t.scale_down - 0.5).abs() < 1e-12,
        "{t}"
    );
    let mut off = FeatureGates::default();
    off.set("HPAConfigurableTolerance", false);
    assert_eq!(c.tolerances_for_hpa(&hpa, &off), Tolerances::uniform(0.1));
}
