#!/usr/bin/env bash
# The size and speed report: builds everything, runs every benchmark and prints ONE table
# (figure | target | measured | pass). Exit status 1 when a figure misses its target.
#
#   scripts/bench.sh              everything
#   BENCH_SKIP_NATIVE=1 ...       skip `cargo bench --bench scale` (slow on small machines)
#   BENCH_RUNS=1 ...              runs of the wasm-vs-native workload (median; default 3)
#   BENCH_WORKLOAD=small ...      that workload at a tenth of the size (scale-cycle-small.yaml)
#   BENCH_ONLY=render ...         only some browser figures (wasm, week, first, render)
#
# Steps: the release WebAssembly build (wasm-pack, as scripts/serve.sh), `cargo bench --bench
# scale` (its rows come from target/bench-native.json when the bench writes one, else from its
# printed table), examples/bench_workload.rs on benches/workloads/scale-cycle.yaml (the native
# half of the wasm-vs-native ratio), then scripts/bench.mjs: bundle size, share-link lengths,
# and the browser figures in headless /usr/bin/chromium (wasm workload, rendering, first render).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

"$root/scripts/install-tools.sh" >&2
export PATH="$root/node_modules/.bin:$HOME/.cargo/bin:$PATH"
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"
target=${CARGO_TARGET_DIR:-$root/target}
mkdir -p "$target"

echo "[bench] wasm-pack build --release --target web" >&2
wasm-pack build --release --target web --mode no-install >&2

export BENCH_NATIVE_JSON="$target/bench-native.json"
export BENCH_NATIVE_TXT="$target/bench-native.txt"
if [ -z "${BENCH_SKIP_NATIVE:-}" ]; then
  rm -f "$BENCH_NATIVE_JSON"
  echo "[bench] cargo bench --bench scale" >&2
  cargo bench --bench scale | tee "$BENCH_NATIVE_TXT" >&2
else
  rm -f "$BENCH_NATIVE_TXT"
fi

export BENCH_WORKLOAD_JSON="$target/bench-workload.json"
export BENCH_WORKLOAD_FILE="benches/workloads/scale-cycle${BENCH_WORKLOAD:+-$BENCH_WORKLOAD}.yaml"
echo "[bench] native workload: examples/bench_workload.rs $BENCH_WORKLOAD_FILE" >&2
cargo run --quiet --release --example bench_workload -- \
  "$BENCH_WORKLOAD_FILE" 600 "${BENCH_RUNS:-3}" | tee "$BENCH_WORKLOAD_JSON" >&2

export BENCH_OUT="$target/bench.json"
echo "[bench] page figures (scripts/bench.mjs)" >&2
node scripts/bench.mjs
