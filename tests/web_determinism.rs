//! Determinism native vs WebAssembly: built-in scenarios run in the browser must produce the
//! very bytes of the reviewed native traces in tests/traces/ (same trace renderer, same final
//! status section as tests/scenario_traces.rs). Run with
//! `cargo test --target wasm32-unknown-unknown --test web_determinism` (wasm-bindgen-test-runner).
#![cfg(target_arch = "wasm32")]

use kubeplay::scenario::{builtin::BUILTIN, Scenario};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// tests/scenario_traces.rs `final_status`, kept byte-identical.
fn final_status(sim: &kubeplay::sim::Simulation) -> String {
    let mut out = String::from("--- final status\n");
    for o in sim.api.store.all() {
        if o.kind() == "Pod" || o.kind() == "Event" {
            continue;
        }
        let v = serde_json::to_value(o).expect("json");
        if let Some(status) = v
            .get("status")
            .filter(|s| s.as_object().is_some_and(|m| !m.is_empty()))
        {
            let status = if o.kind() == "Node" {
                serde_json::json!({
                    "conditions": status.get("conditions").cloned().unwrap_or_default()
                        .as_array().cloned().unwrap_or_default().iter()
                        .map(|c| format!("{}={}", c["type"].as_str().unwrap_or(""), c["status"].as_str().unwrap_or("")))
                        .collect::<Vec<_>>(),
                })
            } else {
                status.clone()
            };
            let m = o.meta();
            out.push_str(&format!(
                "{}/{}/{}: {}\n",
                o.kind(),
                m.namespace,
                m.name,
                status
            ));
        }
    }
    out
}

fn trace_of(name: &str) -> String {
    let text = BUILTIN
        .iter()
        .find(|(n, _)| *n == name)
        .unwrap_or_else(|| panic!("no built-in {name}"))
        .1;
    let s = Scenario::parse(text).expect("parses");
    let mut sim = s.build().expect("builds");
    let end = sim.start + s.default_duration().expect("duration");
    sim.run_until(end).expect("runs");
    kubeplay::trace::render_trace(&sim) + &final_status(&sim)
}

macro_rules! same_as_native {
    ($test:ident, $name:literal) => {
        #[wasm_bindgen_test]
        fn $test() {
            let native = include_str!(concat!("traces/", $name, ".trace"));
            let wasm = trace_of($name);
            if wasm != native {
                let line = wasm
                    .lines()
                    .zip(native.lines())
                    .position(|(a, b)| a != b)
                    .unwrap_or(0);
                panic!(
                    "{}: wasm trace differs from native at line {}:\n wasm:   {:?}\n native: {:?}",
                    $name,
                    line + 1,
                    wasm.lines().nth(line),
                    native.lines().nth(line)
                );
            }
        }
    };
}

// A rollout (surge/unavailable arithmetic), a CronJob across time zones (cron + tz data),
// a StatefulSet and a node failure (taint eviction timing), further below.
same_as_native!(frontend_matches_native, "frontend");
same_as_native!(cronjob_friday_13_matches_native, "cronjob-friday-13");
same_as_native!(deployment_rollover_matches_native, "deployment-rollover");
same_as_native!(statefulset_web_matches_native, "statefulset-web");
same_as_native!(node_failure_matches_native, "node-failure");
