//! Simulations of what happens to pods after a controller creates them: scheduling, the kubelet,
//! node failure and eviction.

use kubeplay::api::{Duration, Node, Object, Pod, Resource, Time};
use kubeplay::controllers::node_lifecycle::new_node_lifecycle_controller;
use kubeplay::controllers::podgc::new_pod_gc_controller;
use kubeplay::controllers::taint_eviction::new_taint_eviction_controller;
use kubeplay::features::FeatureGates;
use kubeplay::kubelet::new_kubelet;
use kubeplay::scheduler::new_scheduler;
use kubeplay::sim::{Simulation, TimelineAction};
use kubeplay::store::apiserver::DeleteOptions;
use kubeplay::world::{FaultRule, KubeletConfig, PodMatch, World};
use serde_json::{json, Value};

fn start() -> Time {
    Time::parse_rfc3339("2025-01-01T00:00:00Z").unwrap()
}

fn at(s: i64) -> Time {
    start() + Duration::from_secs(s)
}

fn sim_with(kubelet: KubeletConfig) -> Simulation {
    let world = World {
        kubelet: kubelet.into(),
        ..Default::default()
    };
    let mut sim = Simulation::new(1, start(), FeatureGates::default(), world);
    sim.add_loop(new_scheduler());
    sim.add_loop(new_kubelet());
    sim.add_loop(new_node_lifecycle_controller());
    sim.add_loop(new_taint_eviction_controller());
    sim.add_loop(new_pod_gc_controller());
    sim
}

fn sim() -> Simulation {
    sim_with(KubeletConfig::default())
}

fn load(sim: &mut Simulation, v: Value) -> Object {
    sim.api.load(Object::from_value(v).unwrap()).unwrap()
}

fn node(name: &str, cpu: &str, extra_labels: Value) -> Value {
    let mut labels = json!({"kubernetes.io/hostname": name});
    for (k, v) in extra_labels.as_object().unwrap() {
        labels[k] = v.clone();
    }
    json!({
        "apiVersion": "v1", "kind": "Node",
        "metadata": {"name": name, "labels": labels},
        "status": {"capacity": {"cpu": cpu, "memory": "8Gi", "pods": "110"},
                   "allocatable": {"cpu": cpu, "memory": "8Gi", "pods": "110"}}
    })
}

fn pod(name: &str, image: &str) -> Value {
    json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": name, "namespace": "default", "labels": {"app": name}},
        "spec": {"containers": [{"name": "app", "image": image}]}
    })
}

fn get_pod(sim: &Simulation, name: &str) -> Option<Pod> {
    sim.api.store.get::<Pod>("default", name).cloned()
}

fn get_node(sim: &Simulation, name: &str) -> Node {
    sim.api.store.get::<Node>("", name).cloned().unwrap()
}

fn cond<'a>(p: &'a Pod, t: &str) -> Option<&'a str> {
    p.condition(t).map(|c| c.status.as_str())
}

/// Events on an object as `reason: message`, in order.
fn events(sim: &Simulation, kind: &str, name: &str) -> Vec<String> {
    sim.api
        .events
        .iter()
        .filter(|e| e.kind == kind && e.name == name)
        .map(|e| format!("{}: {}", e.reason, e.message))
        .collect()
}

fn event_times(sim: &Simulation, name: &str, reason: &str) -> Vec<i64> {
    sim.api
        .events
        .iter()
        .filter(|e| e.name == name && e.reason == reason)
        .map(|e| (e.time - start()).as_millis() / 1000)
        .collect()
}

fn waiting_reason(p: &Pod) -> String {
    p.status.container_statuses[0]
        .state
        .as_ref()
        .and_then(|s| s.waiting.as_ref())
        .map(|w| w.reason.clone())
        .unwrap_or_default()
}

fn rule(m: PodMatch) -> FaultRule {
    FaultRule {
        match_: m,
        image_pull_error: false,
        run_for: None,
        exit_code: 0,
        never_ready: false,
        ready_after: None,
        ignore_sigterm: false,
        max_pods: None,
    }
}

fn by_name(prefix: &str) -> PodMatch {
    PodMatch {
        name_prefix: Some(prefix.into()),
        ..Default::default()
    }
}

#[test]
fn replicas_spread_across_three_nodes_and_start() {
    let mut s = sim();
    for n in ["node-a", "node-b", "node-c"] {
        load(&mut s, node(n, "4", json!({})));
    }
    let rs = load(
        &mut s,
        json!({"apiVersion": "apps/v1", "kind": "ReplicaSet",
               "metadata": {"name": "web", "namespace": "default"},
               "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "web"}},
                        "template": {"metadata": {"labels": {"app": "web"}},
                                     "spec": {"containers": [{"name": "app", "image": "nginx:1.25"}]}}}}),
    );
    let uid = rs.meta().uid.clone();
    for i in 0..3 {
        let mut p = pod(&format!("web-{i}"), "nginx:1.25");
        p["metadata"]["labels"] = json!({"app": "web"});
        p["metadata"]["ownerReferences"] = json!([{"apiVersion": "apps/v1", "kind": "ReplicaSet",
            "name": "web", "uid": uid, "controller": true}]);
        load(&mut s, p);
    }
    s.settle().unwrap();
    let mut nodes: Vec<String> = (0..3)
        .map(|i| {
            get_pod(&s, &format!("web-{i}"))
                .unwrap()
                .spec
                .node_name
                .clone()
        })
        .collect();
    nodes.sort();
    assert_eq!(nodes, vec!["node-a", "node-b", "node-c"]);
    let p0 = get_pod(&s, "web-0").unwrap();
    assert_eq!(cond(&p0, "PodScheduled"), Some("True"));
    assert_eq!(
        events(&s, "Pod", "web-0")[0],
        format!(
            "Scheduled: Successfully assigned default/web-0 to {}",
            p0.spec.node_name
        )
    );
    assert_eq!(p0.status.phase, "Pending");
    assert_eq!(waiting_reason(&p0), "ContainerCreating");
    assert_eq!(cond(&p0, "Ready"), Some("False"));
    assert_eq!(
        p0.condition("Ready").unwrap().message,
        "containers with unready status: [app]"
    );
    // Pull 1 s, start 1 s.
    s.run_until(at(2)).unwrap();
    let p0 = get_pod(&s, "web-0").unwrap();
    assert_eq!(p0.status.phase, "Running");
    assert_eq!(cond(&p0, "Ready"), Some("True"));
    assert_eq!(cond(&p0, "ContainersReady"), Some("True"));
    assert_eq!(cond(&p0, "Initialized"), Some("True"));
    assert_eq!(
        p0.condition("Ready").unwrap().last_transition_time,
        Some(at(2))
    );
    let cs = &p0.status.container_statuses[0];
    assert!(cs.ready);
    assert_eq!(cs.started, Some(true));
    assert_eq!(cs.image, "docker.io/library/nginx:1.25");
    assert!(cs.image_id.starts_with("docker.io/library/nginx@sha256:"));
    assert!(p0.status.pod_ip.starts_with("10.244."));
    let ev = events(&s, "Pod", "web-0");
    assert_eq!(ev[1], "Pulling: Pulling image \"nginx:1.25\"");
    assert!(
        ev[2].starts_with("Pulled: Successfully pulled image \"nginx:1.25\" in 1s (1s including waiting). Image size: "),
        "{}",
        ev[2]
    );
    assert_eq!(
        &ev[3..],
        &[
            "Created: Created container: app",
            "Started: Started container app"
        ]
    );
    assert_eq!(event_times(&s, "web-0", "Started"), vec![2]);
}

#[test]
fn filters_explain_themselves_and_uncordon_retries() {
    let mut s = sim();
    let mut cp = node("cp", "4", json!({"disk": "ssd"}));
    cp["spec"] = json!({"taints": [{"key": "node-role.kubernetes.io/control-plane", "effect": "NoSchedule"}]});
    load(&mut s, cp);
    let mut cordoned = node("w1", "4", json!({"disk": "ssd"}));
    cordoned["spec"] = json!({"unschedulable": true});
    load(&mut s, cordoned);
    load(&mut s, node("w2", "4", json!({"disk": "hdd"})));
    load(&mut s, node("w3", "1", json!({"disk": "ssd"})));
    load(&mut s, node("w4", "4", json!({"disk": "ssd"})));
    // w4 is busy: 3 of its 4 cpus are requested.
    let mut busy = pod("busy", "nginx");
    busy["spec"]["nodeName"] = json!("w4");
    busy["spec"]["containers"][0]["resources"] = json!({"requests": {"cpu": "3"}});
    load(&mut s, busy);
    let mut p = pod("big", "nginx");
    p["spec"]["nodeSelector"] = json!({"disk": "ssd"});
    p["spec"]["containers"][0]["resources"] = json!({"requests": {"cpu": "2"}});
    s.api.create(Object::from_value(p).unwrap()).unwrap();
    s.settle().unwrap();
    let want = "0/5 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, \
1 node(s) had untolerated taint(s), 1 node(s) were unschedulable, 2 Insufficient cpu. \
no new claims to deallocate, preemption: 0/5 nodes are available: \
1 No preemption victims found for incoming pod, 4 Preemption is not helpful for scheduling.";
    let big = get_pod(&s, "big").unwrap();
    assert_eq!(big.status.phase, "Pending");
    let c = big.condition("PodScheduled").unwrap();
    assert_eq!(
        (c.status.as_str(), c.reason.as_str()),
        ("False", "Unschedulable")
    );
    assert_eq!(c.message, want);
    assert_eq!(
        events(&s, "Pod", "big"),
        vec![format!("FailedScheduling: {want}")]
    );
    // The node lifecycle controller taints the cordoned node.
    assert!(get_node(&s, "w1")
        .spec
        .taints
        .iter()
        .any(|t| t.key == "node.kubernetes.io/unschedulable" && t.effect == "NoSchedule"));
    // Nothing changes for 4 minutes: no retries, no new events.
    s.run_until(at(240)).unwrap();
    assert_eq!(events(&s, "Pod", "big").len(), 1);
    // Uncordon: the taint goes, the pod is retried and bound at once.
    let mut w1 = get_node(&s, "w1");
    w1.spec.unschedulable = false;
    s.api.update(w1.into_object()).unwrap();
    s.settle().unwrap();
    let big = get_pod(&s, "big").unwrap();
    assert_eq!(big.spec.node_name, "w1");
    assert_eq!(event_times(&s, "big", "Scheduled"), vec![240]);
}

#[test]
fn unschedulable_pod_is_retried_every_five_minutes_and_when_a_node_is_added() {
    let mut s = sim();
    load(&mut s, node("small", "1", json!({})));
    let mut p = pod("huge", "nginx");
    p["spec"]["containers"][0]["resources"] = json!({"requests": {"cpu": "2", "memory": "20Gi"}});
    load(&mut s, p);
    s.settle().unwrap();
    let want = "0/1 nodes are available: 1 Insufficient cpu, 1 Insufficient memory. \
no new claims to deallocate, preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.";
    assert_eq!(
        events(&s, "Pod", "huge"),
        vec![format!("FailedScheduling: {want}")]
    );
    s.run_until(at(301)).unwrap();
    assert_eq!(event_times(&s, "huge", "FailedScheduling"), vec![0, 300]);
    // A node that is too small does not wake the pod; a big one does.
    load(&mut s, node("also-small", "1", json!({})));
    s.run_until(at(320)).unwrap();
    assert_eq!(event_times(&s, "huge", "FailedScheduling"), vec![0, 300]);
    let mut big = node("big", "8", json!({}));
    big["status"]["capacity"]["memory"] = json!("64Gi");
    big["status"]["allocatable"]["memory"] = json!("64Gi");
    load(&mut s, big);
    s.settle().unwrap();
    assert_eq!(get_pod(&s, "huge").unwrap().spec.node_name, "big");
    assert_eq!(event_times(&s, "huge", "Scheduled"), vec![320]);
}

#[test]
fn image_pull_error_backs_off() {
    let mut cfg = KubeletConfig::default();
    let mut r = rule(PodMatch {
        image: Some("nginx:1.161".into()),
        ..Default::default()
    });
    r.image_pull_error = true;
    cfg.rules.push(r);
    let mut s = sim_with(cfg);
    load(&mut s, node("n1", "4", json!({})));
    load(&mut s, pod("bad", "nginx:1.161"));
    s.run_until(at(1)).unwrap();
    let p = get_pod(&s, "bad").unwrap();
    assert_eq!(waiting_reason(&p), "ErrImagePull");
    let err = "rpc error: code = NotFound desc = failed to pull and unpack image \"docker.io/library/nginx:1.161\": failed to resolve reference \"docker.io/library/nginx:1.161\": docker.io/library/nginx:1.161: not found";
    assert_eq!(
        p.status.container_statuses[0]
            .state
            .as_ref()
            .unwrap()
            .waiting
            .as_ref()
            .unwrap()
            .message,
        err
    );
    s.run_until(at(2)).unwrap();
    let p = get_pod(&s, "bad").unwrap();
    assert_eq!(waiting_reason(&p), "ImagePullBackOff");
    assert_eq!(p.status.phase, "Pending");
    let ev = events(&s, "Pod", "bad");
    assert_eq!(
        &ev[1..],
        &[
            "Pulling: Pulling image \"nginx:1.161\"".to_string(),
            format!("Failed: Failed to pull image \"nginx:1.161\": {err}"),
            "Failed: Error: ErrImagePull".into(),
            "BackOff: Back-off pulling image \"nginx:1.161\"".into(),
            "Failed: Error: ImagePullBackOff".into(),
        ]
    );
    // Retries after 10 s, then 20 s, then 40 s (each pull takes 1 s).
    s.run_until(at(100)).unwrap();
    assert_eq!(event_times(&s, "bad", "Pulling"), vec![0, 11, 32, 73]);
}

#[test]
fn crash_loop_backs_off_ten_seconds_doubling() {
    let mut cfg = KubeletConfig::default();
    let mut r = rule(by_name("crash"));
    r.run_for = Some(Duration::from_secs(5));
    r.exit_code = 1;
    cfg.rules.push(r);
    let mut s = sim_with(cfg);
    load(&mut s, node("n1", "4", json!({})));
    load(&mut s, pod("crash", "busybox:1.36"));
    // Started at 2 s, exits at 7 s, restarted at once (restartCount 1), runs 8..13 s.
    s.run_until(at(7)).unwrap();
    let p = get_pod(&s, "crash").unwrap();
    assert_eq!(p.status.container_statuses[0].restart_count, 1);
    let last = p.status.container_statuses[0]
        .last_state
        .clone()
        .unwrap()
        .terminated
        .unwrap();
    assert_eq!((last.exit_code, last.reason.as_str()), (1, "Error"));
    s.run_until(at(13)).unwrap();
    let p = get_pod(&s, "crash").unwrap();
    assert_eq!(waiting_reason(&p), "CrashLoopBackOff");
    assert_eq!(p.status.phase, "Running");
    assert_eq!(cond(&p, "Ready"), Some("False"));
    let w = p.status.container_statuses[0]
        .state
        .clone()
        .unwrap()
        .waiting
        .unwrap();
    assert_eq!(
        w.message,
        format!(
            "back-off 10s restarting failed container=app pod=crash_default({})",
            p.metadata.uid
        )
    );
    assert!(events(&s, "Pod", "crash").contains(&format!(
        "BackOff: Back-off restarting failed container app in pod crash_default({})",
        p.metadata.uid
    )));
    // Restarts at 23 s (10 s), 49 s (20 s), 95 s (40 s).
    s.run_until(at(200)).unwrap();
    assert_eq!(
        event_times(&s, "crash", "Started"),
        vec![2, 8, 24, 50, 96, 182]
    );
    assert_eq!(
        event_times(&s, "crash", "BackOff"),
        vec![13, 29, 55, 101, 187]
    );
    let p = get_pod(&s, "crash").unwrap();
    assert_eq!(p.status.container_statuses[0].restart_count, 5);
    // The image was present after the first pull.
    assert_eq!(event_times(&s, "crash", "Pulling"), vec![0]);
}

#[test]
fn run_to_completion() {
    let mut cfg = KubeletConfig::default();
    let mut ok = rule(by_name("ok"));
    ok.run_for = Some(Duration::from_secs(3));
    let mut bad = rule(by_name("bad"));
    bad.run_for = Some(Duration::from_secs(3));
    bad.exit_code = 2;
    let mut retry = rule(by_name("retry"));
    retry.run_for = Some(Duration::from_secs(3));
    retry.exit_code = 1;
    cfg.rules = vec![ok, bad, retry];
    let mut s = sim_with(cfg);
    load(&mut s, node("n1", "4", json!({})));
    for (n, policy) in [("ok", "Never"), ("bad", "Never"), ("retry", "OnFailure")] {
        let mut p = pod(n, "busybox:1.36");
        p["spec"]["restartPolicy"] = json!(policy);
        load(&mut s, p);
    }
    s.run_until(at(5)).unwrap();
    let ok = get_pod(&s, "ok").unwrap();
    assert_eq!(ok.status.phase, "Succeeded");
    let t = ok.status.container_statuses[0]
        .state
        .clone()
        .unwrap()
        .terminated
        .unwrap();
    assert_eq!((t.exit_code, t.reason.as_str()), (0, "Completed"));
    assert_eq!(t.finished_at, Some(at(5)));
    assert_eq!(ok.condition("Ready").unwrap().reason, "PodCompleted");
    let bad = get_pod(&s, "bad").unwrap();
    assert_eq!(bad.status.phase, "Failed");
    let t = bad.status.container_statuses[0]
        .state
        .clone()
        .unwrap()
        .terminated
        .unwrap();
    assert_eq!((t.exit_code, t.reason.as_str()), (2, "Error"));
    let retry = get_pod(&s, "retry").unwrap();
    assert_eq!(retry.status.phase, "Running");
    assert_eq!(retry.status.container_statuses[0].restart_count, 1);
}

#[test]
fn graceful_termination_takes_stop_time_or_the_grace_period() {
    let mut cfg = KubeletConfig::default();
    let mut stubborn = rule(by_name("stubborn"));
    stubborn.ignore_sigterm = true;
    cfg.rules.push(stubborn);
    let mut s = sim_with(cfg);
    load(&mut s, node("n1", "4", json!({})));
    load(&mut s, pod("polite", "nginx"));
    load(&mut s, pod("stubborn", "nginx"));
    s.run_until(at(10)).unwrap();
    for n in ["polite", "stubborn"] {
        s.api
            .delete("Pod", "default", n, &DeleteOptions::default())
            .unwrap();
    }
    s.settle().unwrap();
    assert_eq!(event_times(&s, "polite", "Killing"), vec![10]);
    assert!(events(&s, "Pod", "polite").contains(&"Killing: Stopping container app".to_string()));
    s.run_until(at(11)).unwrap();
    assert!(
        get_pod(&s, "polite").is_none(),
        "deleted after the 1 s stop"
    );
    let st = get_pod(&s, "stubborn").unwrap();
    assert!(st.metadata.deletion_timestamp.is_some());
    assert_eq!(st.status.phase, "Running");
    s.run_until(at(39)).unwrap();
    assert!(get_pod(&s, "stubborn").is_some());
    s.run_until(at(40)).unwrap();
    assert!(
        get_pod(&s, "stubborn").is_none(),
        "killed at the end of the 30 s grace period"
    );
    // The kubelet's final status before deletion: killed, Failed.
    let last_delete = s
        .actions
        .iter()
        .filter(|a| a.name == "stubborn")
        .map(|a| a.verb)
        .collect::<Vec<_>>();
    assert_eq!(last_delete.last(), Some(&"delete"));
}

#[test]
fn node_failure_unknown_taint_and_eviction_after_300s() {
    let mut s = sim();
    load(&mut s, node("w1", "4", json!({})));
    load(&mut s, node("w2", "4", json!({})));
    let mut tolerant = pod("tolerant", "nginx");
    tolerant["spec"]["nodeName"] = json!("w1");
    let mut tp: Pod = serde_json::from_value(tolerant).unwrap();
    kubeplay::admission::default_toleration_seconds(&mut tp);
    s.api.load(tp.into_object()).unwrap();
    let mut bare = pod("bare", "nginx");
    bare["spec"]["nodeName"] = json!("w1");
    load(&mut s, bare);
    s.run_until(at(100)).unwrap();
    assert_eq!(
        cond(&get_pod(&s, "tolerant").unwrap(), "Ready"),
        Some("True")
    );
    s.schedule(at(100), TimelineAction::NodeFail("w1".into()));
    s.run_until(at(149)).unwrap();
    assert!(
        get_node(&s, "w1").is_ready(),
        "still within the 50 s grace period"
    );
    s.run_until(at(150)).unwrap();
    let w1 = get_node(&s, "w1");
    let ready = w1.condition("Ready").unwrap();
    assert_eq!(
        (
            ready.status.as_str(),
            ready.reason.as_str(),
            ready.message.as_str()
        ),
        (
            "Unknown",
            "NodeStatusUnknown",
            "Kubelet stopped posting node status."
        )
    );
    assert_eq!(ready.last_transition_time, Some(at(150)));
    assert_eq!(w1.condition("MemoryPressure").unwrap().status, "Unknown");
    assert!(events(&s, "Node", "w1")
        .contains(&"NodeNotReady: Node w1 status is now: NodeNotReady".into()));
    let t = get_pod(&s, "tolerant").unwrap();
    assert_eq!(cond(&t, "Ready"), Some("False"));
    assert!(events(&s, "Pod", "tolerant").contains(&"NodeNotReady: Node is not ready".into()));
    let taints = |s: &Simulation| {
        get_node(s, "w1")
            .spec
            .taints
            .iter()
            .map(|t| {
                format!(
                    "{}:{}@{}",
                    t.key,
                    t.effect,
                    (t.time_added.unwrap() - start()).as_millis() / 1000
                )
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(
        taints(&s),
        vec!["node.kubernetes.io/unreachable:NoSchedule@150"]
    );
    s.run_until(at(155)).unwrap();
    assert_eq!(
        taints(&s),
        vec![
            "node.kubernetes.io/unreachable:NoSchedule@150",
            "node.kubernetes.io/unreachable:NoExecute@155"
        ]
    );
    // The pod without tolerations goes at once; the other after its 300 s.
    let bare = get_pod(&s, "bare").unwrap();
    assert!(bare.metadata.deletion_timestamp.is_some());
    assert_eq!(event_times(&s, "bare", "TaintManagerEviction"), vec![155]);
    s.run_until(at(454)).unwrap();
    assert!(get_pod(&s, "tolerant")
        .unwrap()
        .metadata
        .deletion_timestamp
        .is_none());
    s.run_until(at(455)).unwrap();
    let t = get_pod(&s, "tolerant").unwrap();
    assert!(t.metadata.deletion_timestamp.is_some(), "evicted at +300 s");
    let dt = t.condition("DisruptionTarget").unwrap();
    assert_eq!(
        (dt.reason.as_str(), dt.message.as_str()),
        (
            "DeletionByTaintManager",
            "Taint manager: deleting due to NoExecute taint"
        )
    );
    assert!(events(&s, "Pod", "tolerant")
        .contains(&"TaintManagerEviction: Marking for deletion Pod default/tolerant".into()));
    // The kubelet is down: the pod stays Terminating until the node comes back.
    s.run_until(at(600)).unwrap();
    assert!(get_pod(&s, "tolerant").is_some());
    s.schedule(at(600), TimelineAction::NodeRecover("w1".into()));
    s.run_until(at(601)).unwrap();
    assert!(get_pod(&s, "tolerant").is_none());
    assert!(get_node(&s, "w1").is_ready());
    s.run_until(at(605)).unwrap();
    assert!(taints(&s).is_empty(), "{:?}", taints(&s));
}

#[test]
fn whole_cluster_down_stops_evictions() {
    let mut s = sim();
    load(&mut s, node("only", "4", json!({})));
    let mut p = pod("p", "nginx");
    p["spec"]["nodeName"] = json!("only");
    load(&mut s, p);
    s.schedule(at(10), TimelineAction::NodeFail("only".into()));
    s.run_until(at(400)).unwrap();
    let n = get_node(&s, "only");
    assert_eq!(n.condition("Ready").unwrap().status, "Unknown");
    assert!(
        n.spec.taints.iter().all(|t| t.effect != "NoExecute"),
        "{:?}",
        n.spec.taints
    );
    assert!(get_pod(&s, "p")
        .unwrap()
        .metadata
        .deletion_timestamp
        .is_none());
}

#[test]
fn pod_gc_deletes_orphans_after_quarantine_and_out_of_service_pods() {
    let mut s = sim();
    load(&mut s, node("w1", "4", json!({})));
    let mut orphan = pod("orphan", "nginx");
    orphan["spec"]["nodeName"] = json!("ghost");
    load(&mut s, orphan);
    s.run_until(at(39)).unwrap();
    assert!(get_pod(&s, "orphan").is_some());
    s.run_until(at(40)).unwrap();
    assert!(get_pod(&s, "orphan").is_none());
    // Out of service: a terminating pod on a down node is force-deleted once tainted.
    let mut p = pod("stuck", "nginx");
    p["spec"]["nodeName"] = json!("w1");
    load(&mut s, p);
    s.run_until(at(50)).unwrap();
    s.schedule(at(50), TimelineAction::NodeFail("w1".into()));
    s.run_until(at(120)).unwrap();
    s.api
        .delete("Pod", "default", "stuck", &DeleteOptions::default())
        .unwrap();
    s.run_until(at(130)).unwrap();
    assert!(get_pod(&s, "stuck").is_some());
    let mut n = get_node(&s, "w1");
    n.spec.taints.push(kubeplay::api::Taint {
        key: "node.kubernetes.io/out-of-service".into(),
        value: "nodeshutdown".into(),
        effect: "NoExecute".into(),
        time_added: None,
    });
    s.api.update(n.into_object()).unwrap();
    s.settle().unwrap();
    assert!(get_pod(&s, "stuck").is_none());
}

#[test]
fn frozen_pods_keep_their_status() {
    let mut s = sim();
    load(&mut s, node("n1", "4", json!({})));
    let mut p = pod("ice", "nginx");
    p["metadata"]["annotations"] = json!({"kubeplay.dev/frozen": "true"});
    p["spec"]["nodeName"] = json!("n1");
    p["status"] = json!({"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}]});
    load(&mut s, p);
    let before = get_pod(&s, "ice").unwrap().status;
    s.run_until(at(60)).unwrap();
    assert_eq!(get_pod(&s, "ice").unwrap().status, before);
}

#[test]
fn higher_priority_pod_preempts() {
    let mut s = sim();
    load(&mut s, node("n1", "2", json!({})));
    let mut low = pod("low", "nginx");
    low["spec"]["nodeName"] = json!("n1");
    low["spec"]["priority"] = json!(0);
    low["spec"]["containers"][0]["resources"] = json!({"requests": {"cpu": "2"}});
    load(&mut s, low);
    s.run_until(at(10)).unwrap();
    let mut high = pod("high", "nginx");
    high["spec"]["priority"] = json!(1000);
    high["spec"]["containers"][0]["resources"] = json!({"requests": {"cpu": "1"}});
    load(&mut s, high);
    s.settle().unwrap();
    let low_p = get_pod(&s, "low").unwrap();
    assert!(low_p.metadata.deletion_timestamp.is_some());
    assert_eq!(
        low_p.condition("DisruptionTarget").unwrap().reason,
        "PreemptionByScheduler"
    );
    let high_p = get_pod(&s, "high").unwrap();
    assert_eq!(
        events(&s, "Pod", "low").last().unwrap(),
        "Killing: Stopping container app"
    );
    assert!(events(&s, "Pod", "low").contains(&format!(
        "Preempted: Preempted by pod {} on node n1",
        high_p.metadata.uid
    )));
    assert_eq!(
        high_p
            .status
            .extra
            .get("nominatedNodeName")
            .and_then(|v| v.as_str()),
        Some("n1")
    );
    assert_eq!(
        events(&s, "Pod", "high")[0],
        "FailedScheduling: 0/1 nodes are available: 1 Insufficient cpu."
    );
    // The victim stops in 1 s; the preemptor is scheduled when it is gone.
    s.run_until(at(11)).unwrap();
    assert!(get_pod(&s, "low").is_none());
    assert_eq!(get_pod(&s, "high").unwrap().spec.node_name, "n1");
}

#[test]
fn bare_node_is_registered_by_its_kubelet_before_scheduling() {
    // With the kubelet registered before the scheduler (the recommended loop order), a node
    // written without status gets its kubelet's labels, capacity and Ready condition first.
    let mut s = Simulation::new(1, start(), FeatureGates::default(), World::default());
    s.add_loop(new_kubelet());
    s.add_loop(new_scheduler());
    load(
        &mut s,
        json!({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "bare"}}),
    );
    load(&mut s, pod("p", "nginx"));
    s.settle().unwrap();
    let n = get_node(&s, "bare");
    assert!(n.is_ready());
    assert_eq!(n.status.allocatable["cpu"].0, "4");
    assert_eq!(n.metadata.labels["kubernetes.io/hostname"], "bare");
    assert_eq!(get_pod(&s, "p").unwrap().spec.node_name, "bare");
    assert!(event_times(&s, "p", "FailedScheduling").is_empty());
}

#[test]
fn init_containers_run_first() {
    let mut s = sim();
    load(&mut s, node("n1", "4", json!({})));
    let mut p = pod("withinit", "nginx:1.25");
    p["spec"]["initContainers"] = json!([{"name": "setup", "image": "busybox:1.36"}]);
    load(&mut s, p);
    s.run_until(at(2)).unwrap();
    let p = get_pod(&s, "withinit").unwrap();
    assert_eq!(p.status.phase, "Pending");
    let init = p.condition("Initialized").unwrap();
    assert_eq!(
        (init.status.as_str(), init.message.as_str()),
        ("False", "containers with incomplete status: [setup]")
    );
    assert_eq!(waiting_reason(&p), "PodInitializing");
    // setup: pulled at 1 s, started at 2 s, exits 0 at 3 s; app pulls 3..4 s, starts at 5 s.
    s.run_until(at(5)).unwrap();
    let p = get_pod(&s, "withinit").unwrap();
    assert_eq!(p.status.phase, "Running");
    assert_eq!(cond(&p, "Initialized"), Some("True"));
    let setup = &p.status.init_container_statuses[0];
    let t = setup.state.clone().unwrap().terminated.unwrap();
    assert_eq!((t.exit_code, t.reason.as_str()), (0, "Completed"));
    assert!(setup.ready);
    assert_eq!(event_times(&s, "withinit", "Started"), vec![2, 5]);
}

/// gcTerminated (pkg/controller/podgc/gc_controller.go): above `--terminated-pod-gc-threshold`
/// the oldest terminated pods are deleted, down to the threshold; at or under it nothing is.
/// The count of terminated pods is kept from the watch after the initial list, so pods that
/// terminate later are counted too.
#[test]
fn pod_gc_deletes_the_oldest_terminated_pods_above_the_threshold() {
    use kubeplay::controllers::podgc::PodGcController;
    let world = World::default();
    let mut s = Simulation::new(1, start(), FeatureGates::default(), world);
    let mut gc = PodGcController::default();
    gc.terminated_pod_threshold = 2;
    s.add_loop(Box::new(gc));
    load(&mut s, node("w1", "4", json!({})));
    let done = |name: &str, created: &str| {
        let mut p = pod(name, "busybox");
        p["metadata"]["creationTimestamp"] = json!(created);
        p["spec"]["nodeName"] = json!("w1");
        p["status"] = json!({"phase": "Succeeded"});
        p
    };
    load(&mut s, done("a", "2024-12-31T23:00:00Z"));
    load(&mut s, done("b", "2024-12-31T23:10:00Z"));
    s.run_until(at(1)).unwrap();
    assert!(get_pod(&s, "a").is_some() && get_pod(&s, "b").is_some());
    load(&mut s, done("c", "2024-12-31T23:20:00Z"));
    load(&mut s, done("d", "2024-12-31T23:30:00Z"));
    s.run_until(at(2)).unwrap();
    let left: Vec<bool> = ["a", "b", "c", "d"]
        .iter()
        .map(|n| get_pod(&s, n).is_some())
        .collect();
    assert_eq!(left, vec![false, false, true, true]);
    // A running pod that terminates later counts as well.
    let mut r = pod("e", "busybox");
    r["metadata"]["creationTimestamp"] = json!("2024-12-31T23:40:00Z");
    r["spec"]["nodeName"] = json!("w1");
    r["status"] = json!({"phase": "Running"});
    load(&mut s, r);
    s.run_until(at(3)).unwrap();
    assert!(get_pod(&s, "c").is_some());
    let mut e = get_pod(&s, "e").unwrap();
    e.status.phase = "Failed".into();
    s.api.update_status(e.into_object()).unwrap();
    s.run_until(at(4)).unwrap();
    let left: Vec<bool> = ["c", "d", "e"]
        .iter()
        .map(|n| get_pod(&s, n).is_some())
        .collect();
    assert_eq!(left, vec![false, true, true]);
}
