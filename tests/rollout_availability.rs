//! The rollout availability invariant (`src/invariants.rs`: a RollingUpdate Deployment keeps
//! `replicas − maxUnavailable` available pods while its pods can be ready): it holds through
//! real rollouts, it fires when availability is taken below the bound, and disruptions close
//! its window instead of counting against the controller.

use kubeplay::api::{Deployment, Duration, Pod, ReplicaSet};
use kubeplay::invariants::Checker;
use kubeplay::scenario::Scenario;
use kubeplay::sim::Simulation;
use kubeplay::store::apiserver::DeleteOptions;

fn sim(replicas: i32, strategy: &str, min_ready: i32) -> Simulation {
    let text = format!(
        "apiVersion: kubeplay.dev/v1alpha1\nkind: Scenario\nnodes: [{{count: 3, namePrefix: node-}}]\nkubelet:\n  readiness: 2s\n  rules:\n    - {{match: {{image: \"stuck:1\"}}, neverReady: true}}\nobjects:\n  - {{apiVersion: apps/v1, kind: Deployment, metadata: {{name: web}}, spec: {{replicas: {replicas}, minReadySeconds: {min_ready}, strategy: {strategy}, selector: {{matchLabels: {{app: web}}}}, template: {{metadata: {{labels: {{app: web}}}}, spec: {{containers: [{{name: c, image: nginx:1}}]}}}}}}}}\n"
    );
    Scenario::parse(&text).unwrap().build().unwrap()
}

/// Runs `sim` for `d`, calling `checker.after_sync` after every reconcile (the way the
/// simulation drives its own checker, minus the per-write hooks).
fn run_checked(sim: &mut Simulation, checker: &mut Checker, d: Duration) {
    let until = sim.now() + d;
    loop {
        while sim.step().unwrap() {
            checker.after_sync(&sim.api.store, sim.now());
        }
        match sim.next_event_time() {
            Some(t) if t <= until => sim.api.now = t.max(sim.api.now),
            _ => break,
        }
    }
    sim.api.now = until;
}

fn kubectl(sim: &mut Simulation, cmd: &str) {
    kubeplay::kubectl::execute_with_input(sim, cmd, None)
        .unwrap_or_else(|e| panic!("{cmd}: {e:?}"));
}

/// Rollouts of every maxSurge/maxUnavailable shape complete with the bound checked after
/// every reconcile, many times inside the window, and never broken.
#[test]
fn holds_through_rollouts() {
    for (strategy, min_ready) in [
        ("{rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}", 0),
        ("{rollingUpdate: {maxSurge: 0, maxUnavailable: 1}}", 0),
        ("{rollingUpdate: {maxSurge: 25%, maxUnavailable: 25%}}", 3),
        ("{rollingUpdate: {maxSurge: 3, maxUnavailable: 50%}}", 0),
    ] {
        let mut sim = sim(6, strategy, min_ready);
        let mut checker = Checker::new();
        run_checked(&mut sim, &mut checker, Duration::from_secs(30));
        let before = checker.rollout_checks();
        assert!(before > 0, "{strategy}: the window never opened");
        for image in ["nginx:2", "nginx:3"] {
            kubectl(&mut sim, &format!("set image deployment/web c={image}"));
            run_checked(&mut sim, &mut checker, Duration::from_secs(60));
        }
        // A rollout to pods that never become ready cannot take availability down either;
        // undoing it completes.
        kubectl(&mut sim, "set image deployment/web c=stuck:1");
        run_checked(&mut sim, &mut checker, Duration::from_secs(60));
        kubectl(&mut sim, "rollout undo deployment/web");
        run_checked(&mut sim, &mut checker, Duration::from_secs(60));
        let d = sim.api.store.get::<Deployment>("default", "web").unwrap();
        assert_eq!(d.status.updated_replicas, 6, "{strategy}: {:?}", d.status);
        assert_eq!(d.status.available_replicas, 6, "{strategy}: {:?}", d.status);
        assert!(
            checker.rollout_checks() > before + 20,
            "{strategy}: {} checks",
            checker.rollout_checks()
        );
        assert!(
            checker.violations().is_empty(),
            "{strategy}: {:?}",
            checker.violations()
        );
    }
}

/// Pods of a fully available Deployment removed behind the checker's back (it sees no author
/// of the writes, so it cannot tell them from the controllers' own) take availability below
/// the bound: reported, with the numbers.
#[test]
fn fires_when_availability_drops_below_the_bound() {
    let mut sim = sim(4, "{rollingUpdate: {maxSurge: 1, maxUnavailable: 1}}", 0);
    let mut checker = Checker::new();
    run_checked(&mut sim, &mut checker, Duration::from_secs(30));
    assert!(checker.rollout_checks() > 0);
    assert!(
        checker.violations().is_empty(),
        "{:?}",
        checker.violations()
    );
    // One pod fewer is within maxUnavailable: no report.
    let pods: Vec<String> = sim
        .api
        .store
        .list::<Pod>(None)
        .map(|p| p.metadata.name.clone())
        .collect();
    assert_eq!(pods.len(), 4);
    let opts = DeleteOptions {
        grace_period_seconds: Some(0),
        ..Default::default()
    };
    sim.api.delete("Pod", "default", &pods[0], &opts).unwrap();
    checker.after_sync(&sim.api.store, sim.now());
    assert!(
        checker.violations().is_empty(),
        "{:?}",
        checker.violations()
    );
    // Two fewer is not.
    sim.api.delete("Pod", "default", &pods[1], &opts).unwrap();
    checker.after_sync(&sim.api.store, sim.now());
    assert_eq!(checker.violations().len(), 1, "{:?}", checker.violations());
    assert!(
        checker.violations()[0].ends_with(
            "Deployment below replicas − maxUnavailable: Deployment default/web: 2 available < replicas 4 − maxUnavailable 1"
        ),
        "{:?}",
        checker.violations()
    );
}

/// With the simulation's own checker (which sees who wrote what), the same scale-down by
/// kubectl, deleting pods, and a node failure are disruptions: they close the window and are
/// not reported; the window reopens once the Deployment is fully available again.
#[test]
fn disruptions_close_the_window() {
    let mut sim = sim(4, "{rollingUpdate: {maxSurge: 1, maxUnavailable: 1}}", 0);
    sim.set_check_invariants(true);
    sim.run_for(Duration::from_secs(30)).unwrap();
    let rs = sim
        .api
        .store
        .list::<ReplicaSet>(None)
        .next()
        .unwrap()
        .clone();
    kubectl(
        &mut sim,
        &format!("scale rs {} --replicas=1", rs.metadata.name),
    );
    sim.run_for(Duration::from_secs(30)).unwrap();
    kubectl(&mut sim, "delete pods --all --wait=false");
    sim.run_for(Duration::from_secs(60)).unwrap();
    sim.apply_action(kubeplay::sim::TimelineAction::NodeFail("node-1".into()));
    sim.run_for(Duration::from_secs(120)).unwrap();
    kubectl(&mut sim, "set image deployment/web c=nginx:2");
    sim.run_for(Duration::from_secs(120)).unwrap();
    assert!(
        sim.invariant_violations().is_empty(),
        "{:?}",
        sim.invariant_violations()
    );
}
