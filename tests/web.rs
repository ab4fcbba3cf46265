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
        sim.kubectl("kubectl frobnicate pods")
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
