//! Property tests for Deployments over random histories of scaling, image updates,
//! pause/resume and pod failures: rollout bounds hold at every settled instant, status counters
//! are consistent, and the rollout completes once pods are healthy.

use kubeplay::api::{Deployment, Duration, Object, Pod, ReplicaSet};
use kubeplay::controllers::deployment::util::{max_surge, max_unavailable};
use kubeplay::scenario::Scenario;
use kubeplay::sim::Simulation;
use kubeplay::store::apiserver::DeleteOptions;
use proptest::prelude::*;

#[derive(Clone, Debug)]
enum Op {
    Wait(u32),
    Scale(i32),
    SetImage(u8),
    Pause(bool),
    FailPod(usize),
}

fn op(with_disruptions: bool) -> BoxedStrategy<Op> {
    if with_disruptions {
        prop_oneof![
            (1u32..120).prop_map(Op::Wait),
            (0i32..16).prop_map(Op::Scale),
            (0u8..4).prop_map(Op::SetImage),
            any::<bool>().prop_map(Op::Pause),
            (0usize..40).prop_map(Op::FailPod),
        ]
        .boxed()
    } else {
        prop_oneof![
            (1u32..120).prop_map(Op::Wait),
            (0u8..4).prop_map(Op::SetImage)
        ]
        .boxed()
    }
}

fn sim(replicas: i32, surge: &str, unavailable: &str, seed: u64) -> Simulation {
    let text = format!(
        r#"
apiVersion: kubeplay.dev/v1alpha1
kind: Scenario
seed: {seed}
kubelet: {{imagePull: 3s, containerStart: 2s, readiness: 1s}}
nodes: [{{count: 4, namePrefix: node-}}]
objects:
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {{name: web}}
    spec:
      replicas: {replicas}
      strategy: {{rollingUpdate: {{maxSurge: {surge}, maxUnavailable: {unavailable}}}}}
      selector: {{matchLabels: {{app: web}}}}
      template:
        metadata: {{labels: {{app: web}}}}
        spec:
          containers: [{{name: c, image: "nginx:1.0"}}]
"#
    );
    Scenario::parse(&text).unwrap().build().unwrap()
}

fn deployment(sim: &Simulation) -> Deployment {
    sim.api
        .store
        .get::<Deployment>("default", "web")
        .unwrap()
        .clone()
}

fn replica_sets(sim: &Simulation) -> Vec<ReplicaSet> {
    sim.api
        .store
        .list::<ReplicaSet>(Some("default"))
        .cloned()
        .collect()
}

fn update(sim: &mut Simulation, f: impl FnOnce(&mut Deployment)) {
    let mut d = deployment(sim);
    f(&mut d);
    d.metadata.resource_version.clear();
    sim.api.update(Object::Deployment(d)).unwrap();
}

/// Checks the bounds at one settled instant.
fn check_bounds(sim: &Simulation) -> Result<(), TestCaseError> {
    let d = deployment(sim);
    let rss = replica_sets(sim);
    let replicas = d.spec.replicas.unwrap_or(1);
    let sum: i32 = rss.iter().map(|rs| rs.spec.replicas.unwrap_or(0)).sum();
    // The controller has reconciled this generation: the ReplicaSets stay within the surge.
    if d.status.observed_generation >= d.metadata.generation && !d.spec.paused {
        prop_assert!(
            sum <= replicas + max_surge(&d),
            "sum of ReplicaSet replicas {sum} > {replicas} + maxSurge {} at {}",
            max_surge(&d),
            sim.now()
        );
    }
    for rs in &rss {
        let s = &rs.status;
        prop_assert!(s.available_replicas <= s.ready_replicas, "{s:?}");
        prop_assert!(s.ready_replicas <= s.replicas, "{s:?}");
    }
    let s = &d.status;
    prop_assert!(s.available_replicas <= s.ready_replicas, "{s:?}");
    prop_assert!(s.ready_replicas <= s.replicas, "{s:?}");
    prop_assert!(s.updated_replicas <= s.replicas, "{s:?}");
    Ok(())
}

/// Runs to `until`, checking after every settled instant.
fn run_checked(
    sim: &mut Simulation,
    d: Duration,
    extra: &dyn Fn(&Simulation) -> Result<(), TestCaseError>,
) -> Result<(), TestCaseError> {
    let until = sim.now() + d;
    while let Some(t) = sim.next_event_time() {
        if t > until {
            break;
        }
        sim.run_until(t).unwrap();
        check_bounds(sim)?;
        extra(sim)?;
    }
    sim.run_until(until).unwrap();
    check_bounds(sim)?;
    extra(sim)
}

fn apply(
    sim: &mut Simulation,
    op: &Op,
    extra: &dyn Fn(&Simulation) -> Result<(), TestCaseError>,
) -> Result<(), TestCaseError> {
    match op {
        Op::Wait(s) => return run_checked(sim, Duration::from_secs(i64::from(*s)), extra),
        Op::Scale(n) => update(sim, |d| d.spec.replicas = Some(*n)),
        Op::SetImage(v) => update(sim, |d| {
            d.spec.template_mut().spec_mut().containers[0].image = format!("nginx:1.{v}")
        }),
        Op::Pause(p) => update(sim, |d| d.spec.paused = *p),
        Op::FailPod(i) => {
            let pods: Vec<Pod> = sim
                .api
                .store
                .list::<Pod>(Some("default"))
                .cloned()
                .collect();
            if !pods.is_empty() {
                let name = pods[i % pods.len()].metadata.name.clone();
                let _ = sim
                    .api
                    .delete("Pod", "default", &name, &DeleteOptions::default());
            }
        }
    }
    sim.settle().unwrap();
    check_bounds(sim)?;
    extra(sim)
}

fn assert_complete(sim: &Simulation) -> Result<(), TestCaseError> {
    let d = deployment(sim);
    let replicas = d.spec.replicas.unwrap_or(1);
    let s = &d.status;
    prop_assert_eq!(s.replicas, replicas, "{:?}", s);
    prop_assert_eq!(s.updated_replicas, replicas, "{:?}", s);
    prop_assert_eq!(s.available_replicas, replicas, "{:?}", s);
    prop_assert_eq!(s.unavailable_replicas, 0);
    let progressing = s
        .conditions
        .iter()
        .find(|c| c.type_ == "Progressing")
        .unwrap();
    prop_assert_eq!(progressing.reason.as_str(), "NewReplicaSetAvailable");
    let nonzero = replica_sets(sim)
        .iter()
        .filter(|rs| rs.spec.replicas.unwrap_or(0) > 0)
        .count();
    prop_assert!(nonzero <= 1, "old ReplicaSets still scaled up");
    Ok(())
}

fn strategy() -> impl Strategy<Value = (i32, String, String)> {
    (1i32..12, 0u8..4, 0u8..4, any::<bool>()).prop_map(|(r, s, u, pct)| {
        let (s, u) = if s == 0 && u == 0 { (1, 0) } else { (s, u) };
        if pct {
            (r, format!("\"{}%\"", s * 25), format!("\"{}%\"", u * 25))
        } else {
            (r, s.to_string(), u.to_string())
        }
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, ..ProptestConfig::default() })]

    /// Any history: bounds hold throughout, and after resuming and waiting the rollout completes.
    #[test]
    fn rollouts_stay_in_bounds_and_complete((replicas, surge, unavailable) in strategy(), seed in 0u64..500,
                                           ops in proptest::collection::vec(op(true), 0..10)) {
        let mut sim = sim(replicas, &surge, &unavailable, seed);
        let none = |_: &Simulation| Ok(());
        for o in &ops {
            apply(&mut sim, o, &none)?;
        }
        update(&mut sim, |d| d.spec.paused = false);
        run_checked(&mut sim, Duration::from_mins(10), &none)?;
        assert_complete(&sim)?;
    }

    /// Image updates only (no scaling, no failures): once the first rollout is available, the
    /// Deployment never drops below `replicas - maxUnavailable` available pods.
    #[test]
    fn availability_never_drops_below_min((replicas, surge, unavailable) in strategy(), seed in 0u64..500,
                                          ops in proptest::collection::vec(op(false), 1..8)) {
        let mut sim = sim(replicas, &surge, &unavailable, seed);
        sim.run_for(Duration::from_mins(1)).unwrap();
        assert_complete(&sim)?;
        let min_available = |sim: &Simulation| -> Result<(), TestCaseError> {
            let d = deployment(sim);
            let min = d.spec.replicas.unwrap_or(1) - max_unavailable(&d);
            let available: i32 = replica_sets(sim).iter().map(|rs| rs.status.available_replicas).sum();
            prop_assert!(available >= min, "available {} < {} at {}", available, min, sim.now());
            Ok(())
        };
        for o in &ops {
            apply(&mut sim, o, &min_available)?;
        }
        run_checked(&mut sim, Duration::from_mins(10), &min_available)?;
        assert_complete(&sim)?;
    }
}
