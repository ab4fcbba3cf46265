//! Browser tests of the JavaScript boundary (`src/wasm.rs`), run by `wasm-pack test --chrome`.
#![cfg(target_arch = "wasm32")]

use js_sys::{Array, Error, Object, Reflect};
use kubeplay::wasm::{WasmSimulation as Simulation, TYPESCRIPT_TYPES};
use std::collections::BTreeSet;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// Three nodes, one named pod, one pod with a generated name (its name and every uid come from
/// the seeded RNG, so they show whether two runs agree) and a ReplicaSet scaled to zero.
fn scenario(seed: u64) -> String {
    format!(
        r#"apiVersion: kubeplay.dev/v1alpha1
kind: Scenario
metadata:
  name: web-smoke
seed: {seed}
nodes:
- count: 3
  namePrefix: worker-
objects:
- apiVersion: v1
  kind: Pod
  metadata:
    name: web
    labels: {{app: web}}
  spec:
    containers:
    - name: nginx
      image: nginx:1.27
      resources:
        requests: {{cpu: 100m, memory: 64Mi}}
- apiVersion: v1
  kind: Pod
  metadata:
    generateName: worker-pod-
  spec:
    containers:
    - name: c
      image: busybox
- apiVersion: apps/v1
  kind: ReplicaSet
  metadata:
    name: idle
  spec:
    replicas: 0
    selector:
      matchLabels: {{app: idle}}
    template:
      metadata:
        labels: {{app: idle}}
      spec:
        containers:
        - name: c
          image: busybox
"#
    )
}

fn get(v: &JsValue, key: &str) -> JsValue {
    Reflect::get(v, &JsValue::from_str(key)).unwrap_or_else(|_| panic!("no property {key}"))
}

fn strings(list: &JsValue, key: &str) -> Vec<String> {
    Array::from(list)
        .iter()
        .map(|x| get(&x, key).as_string().expect("a string"))
        .collect()
}

fn json(v: &JsValue) -> String {
    js_sys::JSON::stringify(v)
        .expect("serialisable")
        .as_string()
        .expect("a string")
}

fn error_message(e: Error) -> String {
    e.message().as_string().expect("a message")
}

#[wasm_bindgen_test]
fn builds_runs_and_snapshots() {
    let mut sim = Simulation::new(&scenario(7)).expect("scenario builds");
    assert_eq!(sim.time(), 0.0);
    sim.run_for(30.0).expect("runs");
    assert_eq!(sim.time(), 30.0);
    sim.run_until(45.5).expect("runs");
    assert_eq!(sim.time(), 45.5);
    // runUntil to the past does not move the clock back.
    sim.run_until(10.0).expect("runs");
    assert_eq!(sim.time(), 45.5);

    let snap: JsValue = sim.snapshot().expect("snapshot").into();
    assert_eq!(get(&snap, "time").as_f64(), Some(45.5));
    assert_eq!(
        get(&snap, "now").as_string().as_deref(),
        Some("2025-01-01T00:00:45Z")
    );
    let nodes = get(&snap, "nodes");
    assert_eq!(
        strings(&nodes, "name"),
        ["worker-1", "worker-2", "worker-3"]
    );
    // Maps arrive as plain objects (not JS `Map`s): labels are readable by property.
    let first = Array::from(&nodes).get(0);
    let labels = get(&first, "labels");
    assert!(!labels.is_instance_of::<js_sys::Map>());
    assert_eq!(
        get(&labels, "kubernetes.io/hostname")
            .as_string()
            .as_deref(),
        Some("worker-1")
    );
    assert_eq!(get(&first, "cpuMilli").as_f64(), Some(4000.0));
    assert_eq!(get(&first, "ready").as_string().as_deref(), Some("True"));

    let pods = get(&snap, "pods");
    let names = strings(&pods, "name");
    assert_eq!(names.len(), 2, "{names:?}");
    assert!(names.contains(&"web".to_string()), "{names:?}");
    let generated = names.iter().find(|n| *n != "web").expect("generated pod");
    assert!(generated.starts_with("worker-pod-"), "{generated}");
    assert_eq!(strings(&pods, "namespace"), ["default", "default"]);
    assert!(strings(&pods, "uid").iter().all(|u| u.len() == 36));
}

#[wasm_bindgen_test]
fn stepping_and_events_have_the_documented_shape() {
    let mut sim = Simulation::new(&scenario(1)).expect("scenario builds");
    // With nothing due, a step does nothing and nextEvent reports no next time.
    while sim.step().expect("steps") {}
    let _ = sim.next_event().expect("next event");
    let all: JsValue = sim.events(0).expect("events").into();
    assert!(Array::is_array(&all));
    let n = Array::from(&all).length() as usize;
    let snap: JsValue = sim.snapshot().expect("snapshot").into();
    assert_eq!(get(&snap, "eventCount").as_f64(), Some(n as f64));
    // A cursor past the end is an empty list, not an error.
    let none: JsValue = sim.events(n + 100).expect("events").into();
    assert_eq!(Array::from(&none).length(), 0);
}

#[wasm_bindgen_test]
fn bad_scenarios_throw_errors_naming_the_problem() {
    let e = Simulation::new("kind: Scenario\nbogus: 1\n")
        .err()
        .expect("unknown field rejected");
    assert!(e.is_instance_of::<Error>());
    let msg = error_message(e);
    assert!(msg.contains("unknown field `bogus`"), "{msg}");

    let msg = error_message(
        Simulation::new("kind: Scenario\nnodes: [\n  - a: b\n")
            .err()
            .expect("bad YAML rejected"),
    );
    assert!(msg.starts_with("line "), "{msg}");

    let msg = error_message(
        Simulation::new("apiVersion: v1\nkind: Widget\nmetadata: {name: w}\n")
            .err()
            .expect("unknown kind rejected"),
    );
    assert!(msg.contains("no matches for kind \"Widget\""), "{msg}");

    let mut sim = Simulation::new(&scenario(1)).expect("scenario builds");
    for bad in [-1.0, f64::NAN, f64::INFINITY] {
        let msg = error_message(sim.run_for(bad).expect_err("bad duration rejected"));
        assert!(msg.contains("invalid time"), "{msg}");
    }
    assert_eq!(sim.time(), 0.0, "a rejected call leaves the clock alone");
}

#[wasm_bindgen_test]
fn kubectl_errors_are_thrown_as_errors() {
    let mut sim = Simulation::new(&scenario(1)).expect("scenario builds");
    // Whatever the kubectl subset supports, an unknown verb is an error with kubectl's text.
    let msg = error_message(
        sim.kubectl("kubectl frobnicate pods", None)
            .expect_err("unknown verb rejected"),
    );
    assert!(msg.contains("frobnicate"), "{msg}");
}

#[wasm_bindgen_test]
fn same_seed_same_run() {
    let run = |seed: u64| {
        let mut sim = Simulation::new(&scenario(seed)).expect("scenario builds");
        sim.run_for(120.0).expect("runs");
        let snap: JsValue = sim.snapshot().expect("snapshot").into();
        let events: JsValue = sim.events(0).expect("events").into();
        (json(&snap), json(&events))
    };
    let (a_snap, a_events) = run(42);
    let (b_snap, b_events) = run(42);
    assert_eq!(a_snap, b_snap);
    assert_eq!(a_events, b_events);
    // And the comparison can fail: another seed gives other generated names and uids.
    let (c_snap, _) = run(43);
    assert_ne!(a_snap, c_snap);
}

/// Field names of `export interface NAME { ... }` in the TypeScript declarations.
fn ts_fields(name: &str) -> BTreeSet<String> {
    let start = TYPESCRIPT_TYPES
        .find(&format!("export interface {name} {{"))
        .unwrap_or_else(|| panic!("no interface {name}"));
    let body = &TYPESCRIPT_TYPES[start..];
    body.lines()
        .skip(1)
        .take_while(|l| l.trim() != "}")
        .map(str::trim)
        .filter(|l| !l.starts_with("/**") && !l.starts_with('*') && !l.is_empty())
        .map(|l| {
            let field = l.split(':').next().expect("a field");
            field.trim_end_matches('?').to_string()
        })
        .collect()
}

fn keys(v: &JsValue) -> BTreeSet<String> {
    Object::keys(v.unchecked_ref::<Object>())
        .iter()
        .map(|k| k.as_string().expect("a string key"))
        .collect()
}

#[wasm_bindgen_test]
fn typescript_declarations_match_the_values() {
    let mut sim = Simulation::new(&scenario(5)).expect("scenario builds");
    sim.run_for(60.0).expect("runs");
    let snap: JsValue = sim.snapshot().expect("snapshot").into();
    assert_eq!(keys(&snap), ts_fields("Snapshot"));
    let first = |list: &str| Array::from(&get(&snap, list)).get(0);
    assert_eq!(keys(&first("nodes")), ts_fields("NodeView"));
    assert_eq!(keys(&first("pods")), ts_fields("PodView"));
    assert_eq!(keys(&first("workloads")), ts_fields("WorkloadView"));
    // Events exist once control loops run; every one has the declared shape.
    let events: JsValue = sim.events(0).expect("events").into();
    for e in Array::from(&events).iter() {
        assert_eq!(keys(&e), ts_fields("TraceEvent"));
    }
}

/// A Deployment of 4 replicas, its image changed at 60s by the timeline.
const ROLLOUT: &str = r#"apiVersion: kubeplay.dev/v1alpha1
kind: Scenario
metadata:
  name: web-rollout
seed: 3
objects:
- apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: web
  spec:
    replicas: 4
    selector:
      matchLabels: {app: web}
    template:
      metadata:
        labels: {app: web}
      spec:
        containers:
        - name: nginx
          image: nginx:1.26
timeline:
- at: 60s
  kubectl: set image deployment/web nginx=nginx:1.27
duration: 3m
"#;

/// Optional (`name?:`) fields of an interface.
fn ts_optional(name: &str) -> BTreeSet<String> {
    let start = TYPESCRIPT_TYPES
        .find(&format!("export interface {name} {{"))
        .unwrap_or_else(|| panic!("no interface {name}"));
    TYPESCRIPT_TYPES[start..]
        .lines()
        .skip(1)
        .take_while(|l| l.trim() != "}")
        .filter_map(|l| l.trim().split_once("?:").map(|(f, _)| f.to_string()))
        .collect()
}

/// The value's keys are the interface's fields, optional ones allowed to be absent.
fn assert_shape(v: &JsValue, name: &str) {
    let k = keys(v);
    let all = ts_fields(name);
    let required: BTreeSet<String> = all.difference(&ts_optional(name)).cloned().collect();
    assert!(k.is_subset(&all), "{name}: {k:?} not within {all:?}");
    assert!(
        required.is_subset(&k),
        "{name}: {k:?} lacks some of {required:?}"
    );
}

#[wasm_bindgen_test]
fn kubectl_with_stdin_and_apply_change_the_cluster() {
    let mut sim = Simulation::new(&scenario(1)).expect("scenario builds");
    let rs = "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata:\n  name: api\nspec:\n  replicas: 2\n  selector:\n    matchLabels: {app: api}\n  template:\n    metadata:\n      labels: {app: api}\n    spec:\n      containers:\n      - name: c\n        image: busybox\n";
    let out = sim.apply(rs).expect("applies");
    assert_eq!(out, "replicaset.apps/api created");
    sim.run_for(5.0).expect("runs");
    let out = sim
        .kubectl("kubectl get rs api -o name", None)
        .expect("gets");
    assert_eq!(out, "replicaset.apps/api");
    let out = sim
        .kubectl("delete -f -", Some(rs.to_string()))
        .expect("deletes");
    assert!(out.contains("deleted"), "{out}");
    // Kubernetes-format validation errors arrive as JS Errors.
    let bad = rs.replace("replicas: 2", "replicas: -1");
    let msg = error_message(sim.apply(&bad).expect_err("invalid replicas rejected"));
    assert!(msg.contains("spec.replicas"), "{msg}");
    assert!(msg.contains("is invalid"), "{msg}");
    // Mutating commands are journaled with their time; reads are not.
    let journal: JsValue = sim.journal().expect("journal").into();
    let cmds = strings(&journal, "cmd");
    assert_eq!(cmds, ["apply -f -", "delete -f -", "apply -f -"]);
    assert!(Array::from(&journal).get(1).is_object());
    assert_eq!(get(&Array::from(&journal).get(1), "at").as_f64(), Some(5.0));
}

#[wasm_bindgen_test]
fn events_since_follows_a_cursor_and_resets_after_a_rewind() {
    let mut sim = Simulation::new(ROLLOUT).expect("scenario builds");
    sim.run_for(30.0).expect("runs");
    let first: JsValue = sim.events_since(0).expect("events").into();
    assert_shape(&first, "EventsSince");
    let n = Array::from(&get(&first, "events")).length();
    assert!(n > 0);
    assert_eq!(get(&first, "next").as_f64(), Some(f64::from(n)));
    assert_eq!(get(&first, "reset").as_bool(), Some(false));
    sim.run_for(60.0).expect("runs");
    let more: JsValue = sim.events_since(n as usize).expect("events").into();
    let m = Array::from(&get(&more, "events")).length();
    assert!(m > 0, "the rollout at 60s records events");
    assert_eq!(get(&more, "next").as_f64(), Some(f64::from(n + m)));
    sim.seek(10.0).expect("rewinds");
    let after: JsValue = sim.events_since((n + m) as usize).expect("events").into();
    assert_eq!(get(&after, "reset").as_bool(), Some(true));
    let all: JsValue = sim.events(0).expect("events").into();
    assert_eq!(json(&get(&after, "events")), json(&all));
}

#[wasm_bindgen_test]
fn seek_backwards_is_a_deterministic_replay() {
    let fresh = |t: f64| {
        let mut sim = Simulation::new(ROLLOUT).expect("scenario builds");
        sim.run_until(t).expect("runs");
        let snap: JsValue = sim.snapshot().expect("snapshot").into();
        json(&snap)
    };
    let mut sim = Simulation::new(ROLLOUT).expect("scenario builds");
    sim.run_until(150.0).expect("runs");
    let at_150: JsValue = sim.snapshot().expect("snapshot").into();
    sim.seek(75.0).expect("rewinds");
    assert_eq!(sim.time(), 75.0);
    let at_75: JsValue = sim.snapshot().expect("snapshot").into();
    assert_eq!(json(&at_75), fresh(75.0));
    assert_ne!(
        json(&at_75),
        json(&at_150),
        "the rollout is under way at 75s"
    );
    sim.seek(150.0).expect("forwards");
    let again: JsValue = sim.snapshot().expect("snapshot").into();
    assert_eq!(json(&again), json(&at_150));

    // A user command is replayed at its time by a rewind past it.
    sim.seek(20.0).expect("rewinds");
    sim.kubectl("scale deployment web --replicas=2", None)
        .expect("scales");
    sim.run_until(40.0).expect("runs");
    let scaled: JsValue = sim.snapshot().expect("snapshot").into();
    sim.seek(30.0).expect("rewinds");
    sim.seek(40.0).expect("forwards");
    let replayed: JsValue = sim.snapshot().expect("snapshot").into();
    assert_eq!(json(&replayed), json(&scaled));
    assert_eq!(Array::from(&get(&replayed, "pods")).length(), 2);
    // Before the command the Deployment had 4 pods.
    sim.seek(19.0).expect("rewinds");
    let before: JsValue = sim.snapshot().expect("snapshot").into();
    assert_eq!(Array::from(&get(&before, "pods")).length(), 4);
    assert!(sim.seek(-1.0).is_err());
}

#[wasm_bindgen_test]
fn explain_scale_down_is_structured() {
    let mut sim = Simulation::new(&scenario(1)).expect("scenario builds");
    sim.apply("apiVersion: apps/v1\nkind: ReplicaSet\nmetadata:\n  name: api\nspec:\n  replicas: 3\n  selector:\n    matchLabels: {app: api}\n  template:\n    metadata:\n      labels: {app: api}\n    spec:\n      containers:\n      - name: c\n        image: busybox\n")
        .expect("applies");
    sim.run_for(60.0).expect("runs");
    let e: JsValue = sim
        .explain_scale_down("rs", "default", "api", 1)
        .expect("explains")
        .into();
    assert_shape(&e, "ScaleDownExplanation");
    assert_eq!(get(&e, "deleteCount").as_f64(), Some(2.0));
    let pods = Array::from(&get(&e, "pods"));
    assert_eq!(pods.length(), 3);
    for p in pods.iter() {
        assert_shape(&p, "ExplainedPod");
    }
    let deleted: Vec<bool> = pods
        .iter()
        .map(|p| get(&p, "delete").as_bool().expect("bool"))
        .collect();
    assert_eq!(deleted, [true, true, false]);
    let cmp = Array::from(&get(&e, "comparisons"));
    assert_eq!(cmp.length(), 2);
    for c in cmp.iter() {
        assert_shape(&c, "PairExplanation");
    }
    assert_eq!(
        get(&cmp.get(0), "first").as_string(),
        get(&pods.get(0), "name").as_string()
    );
    let msg = error_message(
        sim.explain_scale_down("rs", "default", "nope", 1)
            .err()
            .expect("missing owner"),
    );
    assert!(msg.contains("not found"), "{msg}");
}

#[wasm_bindgen_test]
fn rollouts_and_history_describe_a_rolling_update() {
    let mut sim = Simulation::new(ROLLOUT).expect("scenario builds");
    assert_eq!(sim.duration(), 180.0);
    // peekNextEvent does not move the clock, and nothing happens before the time it names:
    // running to just before it leaves the snapshot as it was (once the start has settled).
    sim.run_until(0.0).expect("settles");
    let mut steps = 0;
    while let Some(peek) = sim.peek_next_event() {
        steps += 1;
        let before = sim.time();
        assert_eq!(sim.time(), before);
        assert!(peek >= before);
        if peek > before + 0.002 {
            let snap: JsValue = sim.snapshot().expect("snapshot").into();
            let events = sim.events(0).expect("events");
            sim.run_until(peek - 0.001).expect("runs");
            let again: JsValue = sim.snapshot().expect("snapshot").into();
            assert_eq!(json(&get(&again, "pods")), json(&get(&snap, "pods")));
            assert_eq!(json(&sim.events(0).expect("events")), json(&events));
        }
        let reached = sim.next_event().expect("steps").expect("a time");
        assert!(reached >= peek - 1e-9, "{reached} < {peek}");
        assert!(steps < 500, "the rollout settles");
    }
    assert!(steps > 3, "{steps}");
    assert!(sim.time() >= 60.0, "the timeline action at 60s was peeked");
    sim.seek(0.0).expect("rewinds");
    sim.run_until(61.0).expect("runs");
    let list: JsValue = sim.rollouts().expect("rollouts").into();
    let d = Array::from(&list).get(0);
    assert_shape(&d, "DeploymentRollout");
    assert_eq!(get(&d, "maxSurge").as_f64(), Some(1.0));
    assert_eq!(get(&d, "maxUnavailable").as_f64(), Some(1.0));
    let rss = Array::from(&get(&d, "replicaSets"));
    assert_eq!(rss.length(), 2, "old and new ReplicaSets mid-rollout");
    for rs in rss.iter() {
        assert_shape(&rs, "ReplicaSetRollout");
    }
    assert_eq!(get(&rss.get(1), "isNew").as_bool(), Some(true));
    assert_eq!(get(&rss.get(1), "revision").as_f64(), Some(2.0));
    let log: JsValue = sim.timeline_log(0).expect("log").into();
    assert_eq!(
        strings(&log, "action"),
        ["kubectl set image deployment/web nginx=nginx:1.27"]
    );
    assert_shape(&Array::from(&log).get(0), "TimelineLogEntry");
    assert_eq!(get(&Array::from(&log).get(0), "time").as_f64(), Some(60.0));
    let none: JsValue = sim.timeline_log(5).expect("log").into();
    assert_eq!(Array::from(&none).length(), 0);
    assert_eq!(
        get(&d, "progressing").as_string().as_deref(),
        Some("True/ReplicaSetUpdated")
    );
    sim.run_until(180.0).expect("runs");
    let list: JsValue = sim.rollouts().expect("rollouts").into();
    assert_eq!(
        get(&Array::from(&list).get(0), "progressing")
            .as_string()
            .as_deref(),
        Some("True/NewReplicaSetAvailable")
    );
    let h = sim.rollout_history("web").expect("history");
    assert!(h.contains("REVISION"), "{h}");
    assert!(sim.rollout_history("nope").is_err());
}

#[wasm_bindgen_test]
fn builtin_scenarios_are_listed_with_descriptions() {
    let list: JsValue = kubeplay::wasm::builtin_scenarios().expect("list").into();
    let names = strings(&list, "name");
    assert!(names.contains(&"nginx-deployment".to_string()), "{names:?}");
    for s in Array::from(&list).iter() {
        assert_shape(&s, "BuiltinScenario");
        let yaml = get(&s, "yaml").as_string().expect("yaml");
        Simulation::new(&yaml).expect("every built-in builds");
    }
    let first = Array::from(&list).get(0);
    assert!(!get(&first, "description")
        .as_string()
        .expect("a string")
        .is_empty());
}

/// A StatefulSet whose web-0 needs 30 s to become ready, and a DaemonSet with a nodeSelector on
/// three nodes, one of them tainted.
const STS_DS: &str = r#"apiVersion: kubeplay.dev/v1alpha1
kind: Scenario
metadata:
  name: sts-ds
seed: 4
nodes:
- {name: a, labels: {disk: ssd}}
- {name: b}
- name: c
  labels: {disk: ssd}
  taints: [{key: dedicated, value: x, effect: NoSchedule}]
kubelet:
  rules:
  - match: {namePrefix: web-0}
    readyAfter: 30s
objects:
- apiVersion: apps/v1
  kind: StatefulSet
  metadata: {name: web}
  spec:
    replicas: 2
    serviceName: web
    selector: {matchLabels: {app: web}}
    template:
      metadata: {labels: {app: web}}
      spec:
        containers: [{name: c, image: nginx}]
    volumeClaimTemplates:
    - metadata: {name: www}
      spec:
        accessModes: [ReadWriteOnce]
        resources: {requests: {storage: 1Gi}}
- apiVersion: apps/v1
  kind: DaemonSet
  metadata: {name: agent}
  spec:
    selector: {matchLabels: {app: agent}}
    template:
      metadata: {labels: {app: agent}}
      spec:
        nodeSelector: {disk: ssd}
        containers: [{name: c, image: agent}]
"#;

#[wasm_bindgen_test]
fn stateful_sets_and_daemon_set_nodes_are_explained() {
    let mut sim = Simulation::new(STS_DS).expect("scenario builds");
    sim.run_for(10.0).expect("runs");
    let sets: JsValue = sim.stateful_sets().expect("explains").into();
    let sets = Array::from(&sets);
    assert_eq!(sets.length(), 1);
    let web = sets.get(0);
    assert_shape(&web, "StatefulSetExplanation");
    let slots = Array::from(&get(&web, "slots"));
    for s in slots.iter() {
        assert_shape(&s, "SlotExplanation");
        for c in Array::from(&get(&s, "claims")).iter() {
            assert_shape(&c, "ClaimExplanation");
        }
    }
    assert_eq!(strings(&slots.into(), "name"), ["web-0", "web-1"]);
    let slots = Array::from(&get(&web, "slots"));
    assert_eq!(
        get(&slots.get(1), "gate").as_string().as_deref(),
        Some("web-1 waits for web-0 to be Running and Ready")
    );
    let claims = Array::from(&get(&slots.get(0), "claims"));
    assert_eq!(
        get(&claims.get(0), "name").as_string().as_deref(),
        Some("www-web-0")
    );

    let all: JsValue = sim.daemon_sets().expect("explains").into();
    let ds = Array::from(&all).get(0);
    assert_shape(&ds, "DaemonSetExplanation");
    let nodes: JsValue = sim
        .daemon_set_nodes("default", "agent")
        .expect("nodes")
        .into();
    assert_eq!(json(&nodes), json(&get(&ds, "nodes")));
    let rows = Array::from(&nodes);
    for n in rows.iter() {
        assert_shape(&n, "DaemonNodeExplanation");
        for p in Array::from(&get(&n, "pods")).iter() {
            assert_shape(&p, "DaemonPodView");
        }
    }
    assert_eq!(strings(&nodes, "node"), ["a", "b", "c"]);
    let should_run: Vec<bool> = rows
        .iter()
        .map(|n| get(&n, "shouldRun").as_bool().expect("bool"))
        .collect();
    assert_eq!(should_run, [true, false, false]);
    assert_eq!(
        strings(&nodes, "reason")[1],
        "nodeSelector disk=ssd does not match the node's labels"
    );
    assert!(
        strings(&nodes, "reason")[2].starts_with("taint dedicated=x:NoSchedule is not tolerated")
    );
    assert_eq!(
        get(&rows.get(2), "shouldContinueRunning").as_bool(),
        Some(true)
    );
    let msg = error_message(
        sim.daemon_set_nodes("default", "nope")
            .err()
            .expect("missing DaemonSet"),
    );
    assert_eq!(
        msg,
        "Error from server (NotFound): daemonsets.apps \"nope\" not found"
    );
}

#[wasm_bindgen_test]
fn autoscalers_and_load_series_match_their_declarations() {
    let text = kubeplay::scenario::builtin::get("hpa-frontend").expect("built-in");
    let mut sim = Simulation::new(text).expect("scenario builds");
    sim.run_until(240.0).expect("runs");
    let list: JsValue = sim.autoscalers().expect("autoscalers").into();
    let a = Array::from(&list).get(0);
    assert_shape(&a, "AutoscalerView");
    assert_shape(&Array::from(&get(&a, "metrics")).get(0), "HpaMetricView");
    assert_shape(
        &Array::from(&get(&a, "conditions")).get(0),
        "HpaConditionView",
    );
    assert_eq!(get(&a, "targetReplicas").as_f64(), Some(10.0));
    assert_eq!(get(&a, "loadCpuMilli").as_f64(), Some(2400.0));
    let series: JsValue = sim.load_series(0).expect("series").into();
    let series = Array::from(&series);
    assert!(series.length() > 10);
    assert_eq!(json(&series.get(0)), "[0,240]");
}
