//! The kubelet's pod conditions as the apps controllers read them: readiness gates
//! (`GeneratePodReadyCondition`, pkg/kubelet/status/generate.go, built on
//! `ArePodReadinessGatesTrue` of pkg/api/v1/pod/util.go) and the terminal-phase reasons.

use kubeplay::api::{Deployment, Duration, Object, Pod, PodCondition};
use kubeplay::scenario::Scenario;
use kubeplay::sim::Simulation;

const GATE: &str = "example.com/load-balancer";

fn sim(objects: &str) -> Simulation {
    let text = format!(
        "apiVersion: kubeplay.dev/v1alpha1\nkind: Scenario\nnodes: [{{count: 1, namePrefix: node-}}]\nkubelet:\n  readiness: 1s\n  rules:\n    - {{match: {{image: \"ok:1\"}}, runFor: 3s}}\n    - {{match: {{image: \"bad:1\"}}, runFor: 3s, exitCode: 2}}\nobjects:\n{objects}"
    );
    Scenario::parse(&text).unwrap().build().unwrap()
}

fn pods(sim: &Simulation) -> Vec<Pod> {
    sim.api.store.list::<Pod>(None).cloned().collect()
}

fn pod(sim: &Simulation, name: &str) -> Pod {
    sim.api.store.get::<Pod>("default", name).cloned().unwrap()
}

/// (status, reason, message) of a condition.
fn cond(p: &Pod, t: &str) -> (String, String, String) {
    let c = p
        .condition(t)
        .unwrap_or_else(|| panic!("{t} on {}", p.metadata.name));
    (c.status.clone(), c.reason.clone(), c.message.clone())
}

fn triple(s: &str, r: &str, m: &str) -> (String, String, String) {
    (s.into(), r.into(), m.into())
}

/// Sets (or adds) the gate's condition on a pod, as the controller owning the gate would.
fn set_gate(sim: &mut Simulation, name: &str, status: &str) {
    let mut p = pod(sim, name);
    p.status.conditions.retain(|c| c.type_ != GATE);
    p.status.conditions.push(PodCondition {
        type_: GATE.into(),
        status: status.into(),
        last_transition_time: Some(sim.now()),
        ..Default::default()
    });
    sim.api.update_status(Object::Pod(p)).unwrap();
}

// GeneratePodReadyCondition: with running, ready containers the Ready condition waits for every
// readiness gate ("corresponding condition ... does not exist." / "is not \"True\", but
// False"), reason ReadinessGatesNotReady, while ContainersReady is True. A gate set to True
// makes the pod Ready.
#[test]
fn readiness_gates_hold_the_ready_condition() {
    let mut s = sim(&format!(
        "  - {{apiVersion: v1, kind: Pod, metadata: {{name: gated}}, spec: {{readinessGates: [{{conditionType: {GATE}}}], containers: [{{name: c, image: nginx:1}}]}}}}\n"
    ));
    s.run_for(Duration::from_secs(10)).unwrap();
    let p = pod(&s, "gated");
    assert_eq!(p.status.phase, "Running");
    assert_eq!(cond(&p, "ContainersReady"), triple("True", "", ""));
    assert_eq!(
        cond(&p, "Ready"),
        triple(
            "False",
            "ReadinessGatesNotReady",
            "corresponding condition of pod readiness gate \"example.com/load-balancer\" does not exist."
        )
    );
    set_gate(&mut s, "gated", "False");
    s.run_for(Duration::from_secs(1)).unwrap();
    assert_eq!(
        cond(&pod(&s, "gated"), "Ready"),
        triple(
            "False",
            "ReadinessGatesNotReady",
            "the status of pod readiness gate \"example.com/load-balancer\" is not \"True\", but False"
        )
    );
    set_gate(&mut s, "gated", "True");
    s.run_for(Duration::from_secs(1)).unwrap();
    let p = pod(&s, "gated");
    assert_eq!(cond(&p, "Ready"), triple("True", "", ""));
    // The gate's condition is the owner's: the kubelet keeps it.
    assert_eq!(cond(&p, GATE).0, "True");
}

// The Deployment controller counts a pod as available only once it is Ready, so a rollout of
// gated pods reports no available replicas (MinimumReplicasUnavailable) until the gates pass.
#[test]
fn deployment_waits_for_readiness_gates() {
    let mut s = sim(&format!(
        "  - {{apiVersion: apps/v1, kind: Deployment, metadata: {{name: web}}, spec: {{replicas: 2, selector: {{matchLabels: {{app: web}}}}, template: {{metadata: {{labels: {{app: web}}}}, spec: {{readinessGates: [{{conditionType: {GATE}}}], containers: [{{name: c, image: nginx:1}}]}}}}}}}}\n"
    ));
    s.run_for(Duration::from_secs(20)).unwrap();
    let d = s
        .api
        .store
        .get::<Deployment>("default", "web")
        .cloned()
        .unwrap();
    assert_eq!(d.status.replicas, 2);
    assert_eq!(d.status.ready_replicas, 0);
    assert_eq!(d.status.available_replicas, 0);
    let available = d
        .status
        .conditions
        .iter()
        .find(|c| c.type_ == "Available")
        .unwrap();
    assert_eq!(
        (available.status.as_str(), available.reason.as_str()),
        ("False", "MinimumReplicasUnavailable")
    );
    for p in pods(&s) {
        set_gate(&mut s, &p.metadata.name, "True");
    }
    s.run_for(Duration::from_secs(2)).unwrap();
    let d = s
        .api
        .store
        .get::<Deployment>("default", "web")
        .cloned()
        .unwrap();
    assert_eq!(
        (d.status.ready_replicas, d.status.available_replicas),
        (2, 2)
    );
}

// GenerateContainersReadyCondition / GeneratePodReadyCondition / GeneratePodInitializedCondition
// for terminal phases: a Succeeded pod is Initialized with reason PodCompleted and not Ready
// (PodCompleted); a Failed pod is not Ready with reason PodFailed and no message, on both
// Ready and ContainersReady.
#[test]
fn terminal_phase_condition_reasons() {
    let mut s = sim(
        "  - {apiVersion: v1, kind: Pod, metadata: {name: ok}, spec: {restartPolicy: Never, containers: [{name: c, image: \"ok:1\"}]}}\n  - {apiVersion: v1, kind: Pod, metadata: {name: bad}, spec: {restartPolicy: Never, containers: [{name: c, image: \"bad:1\"}]}}\n",
    );
    s.run_for(Duration::from_secs(10)).unwrap();
    let ok = pod(&s, "ok");
    assert_eq!(ok.status.phase, "Succeeded");
    assert_eq!(cond(&ok, "Initialized"), triple("True", "PodCompleted", ""));
    assert_eq!(cond(&ok, "Ready"), triple("False", "PodCompleted", ""));
    assert_eq!(
        cond(&ok, "ContainersReady"),
        triple("False", "PodCompleted", "")
    );
    let bad = pod(&s, "bad");
    assert_eq!(bad.status.phase, "Failed");
    assert_eq!(cond(&bad, "Initialized"), triple("True", "", ""));
    assert_eq!(cond(&bad, "Ready"), triple("False", "PodFailed", ""));
    assert_eq!(
        cond(&bad, "ContainersReady"),
        triple("False", "PodFailed", "")
    );
}

// OrderedReady StatefulSets wait for each pod to be Running and Ready (`isRunningAndReady`)
// before creating the next one: a readiness gate holds the set at web-0 until its owner sets it.
#[test]
fn ordered_ready_statefulset_waits_for_readiness_gates() {
    let mut s = sim(&format!(
        "  - {{apiVersion: apps/v1, kind: StatefulSet, metadata: {{name: web}}, spec: {{replicas: 2, serviceName: web, selector: {{matchLabels: {{app: web}}}}, template: {{metadata: {{labels: {{app: web}}}}, spec: {{readinessGates: [{{conditionType: {GATE}}}], containers: [{{name: c, image: nginx:1}}]}}}}}}}}\n"
    ));
    s.run_for(Duration::from_secs(30)).unwrap();
    let names: Vec<String> = pods(&s).into_iter().map(|p| p.metadata.name).collect();
    assert_eq!(names, ["web-0"]);
    assert_eq!(cond(&pod(&s, "web-0"), "Ready").1, "ReadinessGatesNotReady");
    set_gate(&mut s, "web-0", "True");
    s.run_for(Duration::from_secs(5)).unwrap();
    let names: Vec<String> = pods(&s).into_iter().map(|p| p.metadata.name).collect();
    assert_eq!(names, ["web-0", "web-1"]);
}
