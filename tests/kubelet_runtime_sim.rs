//! The simulated kubelet against upstream's runtime behaviour: sidecars (restartable init
//! containers) in a run-to-completion pod — the phase is `getPhase`'s
//! (pkg/kubelet/kubelet_pods.go), which counts a running sidecar, and the kubelet stops the
//! sidecars once the regular containers are done, so the pod turns Succeeded only after they
//! exited — and the crash-loop back-off's 10-minute reset counted from the last restart.

use kubeplay::api::{Duration, Pod};
use kubeplay::scenario::Scenario;
use kubeplay::sim::Simulation;

fn scenario(rule: &str, pod_spec: &str) -> Simulation {
    let text = format!("apiVersion: kubeplay.dev/v1alpha1\nkind: Scenario\nnodes: [{{count: 1, namePrefix: node-}}]\nkubelet:\n  readiness: 1s\n  rules:\n    - {rule}\nobjects:\n  - {{apiVersion: v1, kind: Pod, metadata: {{name: job}}, spec: {pod_spec}}}\n");
    Scenario::parse(&text).unwrap().build().unwrap()
}

fn sim() -> Simulation {
    let text = "apiVersion: kubeplay.dev/v1alpha1\nkind: Scenario\nnodes: [{count: 1, namePrefix: node-}]\nkubelet:\n  readiness: 1s\n  rules:\n    - {match: {image: \"ok:1\"}, runFor: 3s}\nobjects:\n  - {apiVersion: v1, kind: Pod, metadata: {name: job}, spec: {restartPolicy: Never, initContainers: [{name: side, image: nginx:1, restartPolicy: Always}], containers: [{name: main, image: ok:1}]}}\n";
    Scenario::parse(text).unwrap().build().unwrap()
}

fn pod(sim: &Simulation) -> Pod {
    sim.api.store.get::<Pod>("default", "job").cloned().unwrap()
}

fn cond(p: &Pod, t: &str) -> (String, String) {
    let c = p.condition(t).unwrap();
    (c.status.clone(), c.reason.clone())
}

fn sidecar_running(p: &Pod) -> bool {
    p.status.init_container_statuses[0]
        .state
        .as_ref()
        .is_some_and(|s| s.running.is_some())
}

#[test]
fn a_sidecar_keeps_a_finished_pod_running_until_the_kubelet_stopped_it() {
    let mut s = sim();
    let mut seen_running_after_main = false;
    let mut killing_at = None;
    for _ in 0..120 {
        s.run_for(Duration::from_secs(1)).unwrap();
        let p = pod(&s);
        let main_done = p.status.container_statuses[0]
            .state
            .as_ref()
            .is_some_and(|st| st.terminated.is_some());
        if main_done && p.status.phase != "Succeeded" {
            // getPhase: the sidecar still runs, so the pod is Running, not Succeeded.
            assert_eq!(p.status.phase, "Running");
            assert!(sidecar_running(&p));
            seen_running_after_main = true;
        }
        if killing_at.is_none() {
            killing_at = s
                .api
                .events
                .iter()
                .find(|e| e.name == "job" && e.reason == "Killing")
                .map(|e| e.message.clone());
        }
        if p.status.phase == "Succeeded" {
            break;
        }
    }
    let p = pod(&s);
    assert_eq!(p.status.phase, "Succeeded");
    assert!(
        seen_running_after_main,
        "the pod was Running while its sidecar stopped"
    );
    assert_eq!(killing_at.as_deref(), Some("Stopping container side"));
    // The stopped sidecar is terminated and was not restarted.
    let side = &p.status.init_container_statuses[0];
    assert!(side
        .state
        .as_ref()
        .is_some_and(|st| st.terminated.is_some()));
    assert_eq!(side.restart_count, 0);
    // GeneratePodInitializedCondition / GenerateContainersReadyCondition of a Succeeded pod.
    assert_eq!(
        cond(&p, "Initialized"),
        ("True".into(), "PodCompleted".into())
    );
    assert_eq!(
        cond(&p, "ContainersReady"),
        ("False".into(), "PodCompleted".into())
    );
    assert_eq!(cond(&p, "Ready"), ("False".into(), "PodCompleted".into()));
}

/// Seconds since the start of the pod's events with that reason.
fn event_secs(s: &Simulation, reason: &str) -> Vec<i64> {
    s.api
        .events
        .iter()
        .filter(|e| e.name == "job" && e.reason == reason)
        .map(|e| (e.time - s.start).as_millis() / 1000)
        .collect()
}

// The container back-off of kubelet.go (`flowcontrol.NewBackOff(10 s, 300 s)` whose
// `HasExpiredFunc` is "more than 600 s from the entry's lastUpdate to the exit") as kuberuntime's
// doBackOff uses it: `Next` stamps lastUpdate with the time of the restart (client-go
// flowcontrol `entry.lastUpdate = p.Clock.Now()`), not with the exit time. A container that
// runs 590 s (pull 1 s, start 1 s): exits at 592 (first restart at once, entry 10 s / 592),
// 1183 (591 s after 592: back-off 10 s, restart at 1193 with entry 20 s / 1193) and 1784 (591 s
// after the restart at 1193: still in back-off, 20 s). Counting from the previous exit (1183)
// would have reset the back-off and restarted at once.
#[test]
fn the_crash_loop_back_off_resets_ten_minutes_after_the_last_restart() {
    let mut s = scenario(
        "{match: {image: \"crash:1\"}, runFor: 590s, exitCode: 1}",
        "{containers: [{name: main, image: crash:1}]}",
    );
    s.run_for(Duration::from_secs(1790)).unwrap();
    assert_eq!(event_secs(&s, "BackOff"), [1183, 1784]);
    let p = pod(&s);
    let cs = &p.status.container_statuses[0];
    assert_eq!(cs.restart_count, 2);
    let waiting = cs
        .state
        .as_ref()
        .and_then(|st| st.waiting.as_ref())
        .unwrap();
    assert_eq!(waiting.reason, "CrashLoopBackOff");
    assert!(
        waiting
            .message
            .starts_with("back-off 20s restarting failed container=main"),
        "{}",
        waiting.message
    );
    s.run_for(Duration::from_secs(20)).unwrap();
    assert_eq!(pod(&s).status.container_statuses[0].restart_count, 3);
}
