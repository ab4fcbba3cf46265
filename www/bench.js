// The WebAssembly side of scripts/bench.sh's wasm-vs-native comparison: the same steps as
// examples/bench_workload.rs (parse + build untimed, then `runUntil(seconds)` timed), median of
// `runs`. The result lands in `window.benchResult` and in the page.
import init, { Simulation } from "../pkg/kubeplay.js";

const q = new URLSearchParams(location.search);
const file = q.get("file") ?? "../benches/workloads/scale-cycle.yaml";
const seconds = Number(q.get("seconds") ?? 600);
const runs = Math.max(1, Number(q.get("runs") ?? 3));

async function main() {
  await init();
  const text = await (await fetch(file)).text();
  const walls = [];
  let pods = 0;
  for (let i = 0; i < runs; i++) {
    const sim = new Simulation(text);
    const t = performance.now();
    sim.runUntil(seconds);
    walls.push(performance.now() - t);
    pods = sim.snapshot().pods.length;
    sim.free();
  }
  const inOrder = [...walls]; // the first run is the cold one (the module still in Liftoff)
  walls.sort((a, b) => a - b);
  return { wall_ms: walls[walls.length >> 1], runs, pods, walls: inOrder };
}

main().then(
  (r) => {
    window.benchResult = r;
    document.getElementById("out").textContent = JSON.stringify(r);
  },
  (e) => {
    window.benchResult = { error: String(e?.message ?? e) };
    document.getElementById("out").textContent = `error: ${window.benchResult.error}`;
  },
);
