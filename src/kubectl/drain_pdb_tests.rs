//! `kubectl drain` against a PodDisruptionBudget on the virtual clock (drain.go `evictPods`):
//! a refused eviction (429) prints upstream's retry line and is retried every 5 s while the
//! cluster runs, until the budget allows it or `--timeout` passes.

use super::e2e_workloads::{apply, run};
use super::execute;
use crate::api::policy::PodDisruptionBudget;
use crate::api::{Duration, Pod};
use crate::sim::Simulation;

const WEB: &str = "apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 3
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: nginx
        image: nginx:1.27
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: web
spec:
  minAvailable: 2
  selector:
    matchLabels: {app: web}
";

const RETRY: &str =
    "(will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.";

/// node-1 and node-2, node-2 cordoned so that the three pods start on node-1.
fn cluster() -> Simulation {
    crate::scenario::Scenario::parse(
        "kind: Scenario\nmetadata: {name: pdb}\nnodes:\n- name: node-1\n- name: node-2\n  unschedulable: true\n",
    )
    .unwrap()
    .build()
    .unwrap()
}

fn web_pods(sim: &Simulation) -> Vec<Pod> {
    sim.api
        .store
        .list::<Pod>(Some("default"))
        .filter(|p| p.metadata.labels.get("app").map(String::as_str) == Some("web"))
        .cloned()
        .collect()
}

#[test]
fn drain_waits_for_the_budget() {
    let mut sim = cluster();
    apply(&mut sim, WEB);
    sim.run_for(Duration::from_secs(60)).unwrap();
    // The disruption controller's status: 3 healthy of 2 desired, one disruption allowed.
    let b = sim
        .api
        .store
        .get::<PodDisruptionBudget>("default", "web")
        .unwrap();
    assert_eq!(
        (
            b.status.current_healthy,
            b.status.desired_healthy,
            b.status.expected_pods,
            b.status.disruptions_allowed
        ),
        (3, 2, 3, 1)
    );
    assert_eq!(
        run(&mut sim, "get pdb"),
        "NAME   MIN AVAILABLE   MAX UNAVAILABLE   ALLOWED DISRUPTIONS   AGE\nweb    2               N/A               1                     60s"
    );
    run(&mut sim, "uncordon node-2");
    let before = sim.now();
    let out = run(&mut sim, "drain node-1");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "node/node-1 cordoned");
    assert_eq!(*lines.last().unwrap(), "node/node-1 drained");
    // Every pod is evicted once; the two refused at first are retried with upstream's line.
    let retries = lines.iter().filter(|l| l.ends_with(RETRY)).count();
    assert!(retries >= 2, "{out}");
    for l in lines
        .iter()
        .filter(|l| l.starts_with("error when evicting"))
    {
        assert!(l.starts_with("error when evicting pods/\"web-"), "{l}");
        assert!(l.contains("\" -n \"default\" (will retry after 5s)"), "{l}");
    }
    assert_eq!(
        lines.iter().filter(|l| l.ends_with(" evicted")).count(),
        3,
        "{out}"
    );
    // The drain blocked on the virtual clock (two retries, 10 s); the replacements run on
    // node-2.
    assert_eq!(sim.now() - before, Duration::from_secs(10));
    sim.run_for(Duration::from_secs(30)).unwrap();
    let on_node_2 = web_pods(&sim)
        .iter()
        .filter(|p| p.spec.node_name == "node-2" && p.metadata.deletion_timestamp.is_none())
        .count();
    assert_eq!(on_node_2, 3, "{out}");
}

#[test]
fn drain_gives_up_at_the_timeout() {
    let mut sim = cluster();
    apply(&mut sim, &WEB.replace("minAvailable: 2", "minAvailable: 3"));
    sim.run_for(Duration::from_secs(60)).unwrap();
    let start = sim.now();
    let e = execute(&mut sim, "drain node-1 --timeout=12s").unwrap_err();
    // Attempts at 0 s, 5 s and 10 s; at 15 s the 12 s timeout has passed.
    assert_eq!(e.lines().filter(|l| l.ends_with(RETRY)).count(), 9, "{e}");
    assert!(e.ends_with("global timeout reached: 12s"), "{e}");
    assert!(
        e.contains("There are pending nodes to be drained:\n node-1\n"),
        "{e}"
    );
    assert_eq!(sim.now() - start, Duration::from_secs(15));
    assert!(web_pods(&sim)
        .iter()
        .all(|p| p.metadata.deletion_timestamp.is_none()));
    assert_eq!(
        execute(&mut sim, "drain node-1 --timeout=x").unwrap_err(),
        "error: invalid argument \"x\" for \"--timeout\" flag: time: invalid duration \"x\"\nSee 'kubectl drain --help' for usage."
    );
}
