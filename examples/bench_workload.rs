//! Native side of the wasm-vs-native comparison in scripts/bench.sh: builds a scenario file and
//! times `run_until(start + SECONDS)`, the same steps www/bench.html times in WebAssembly.
//!
//! `cargo run --release --example bench_workload -- FILE SECONDS [RUNS]` prints one JSON line:
//! `{"wall_ms": <median>, "runs": N, "pods": <pods at the end>}`.

use kubeplay::api::{Duration, Pod};
use kubeplay::scenario::Scenario;
use std::time::Instant;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [file, secs, rest @ ..] = args.as_slice() else {
        return Err("usage: bench_workload FILE SECONDS [RUNS]".into());
    };
    let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
    let secs: i64 = secs.parse().map_err(|e| format!("SECONDS: {e}"))?;
    let runs: usize = rest
        .first()
        .map_or(Ok(3), |r| r.parse())
        .map_err(|e| format!("RUNS: {e}"))?;
    let mut walls = vec![];
    let mut pods = 0;
    for _ in 0..runs.max(1) {
        let mut sim = Scenario::parse(&text)
            .and_then(|s| s.build())
            .map_err(|e| e.to_string())?;
        // As the page (`src/wasm.rs`): no client-call log.
        sim.set_record_actions(false);
        let t = Instant::now();
        sim.run_until(sim.start + Duration::from_secs(secs))?;
        walls.push(t.elapsed().as_secs_f64() * 1e3);
        pods = sim.api.store.list::<Pod>(None).count();
    }
    walls.sort_by(|a, b| a.total_cmp(b));
    println!(
        "{{\"wall_ms\": {:.1}, \"runs\": {}, \"pods\": {pods}}}",
        walls[walls.len() / 2],
        walls.len()
    );
    Ok(())
}
