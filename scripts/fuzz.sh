#!/usr/bin/env bash
# Runs every fuzz target for a fixed time (default 60 s each; FUZZ_SECONDS overrides) or a fixed
# number of executions (FUZZ_RUNS), starting from the committed corpus in fuzz/corpus/<target>/.
# Needs the nightly toolchain and cargo-fuzz (`cargo install cargo-fuzz`). New corpus entries
# stay untracked (see fuzz/.gitignore); crashes land in fuzz/artifacts/<target>/.
#   scripts/fuzz.sh                                   # all targets, 60 s each, AddressSanitizer
#   FUZZ_SECONDS=600 scripts/fuzz.sh share_link kubectl
#   FUZZ_RUNS=1000000 FUZZ_SANITIZER=none scripts/fuzz.sh kubectl   # the million-run figures
# FUZZ_SANITIZER: address (default), none, ... (`cargo fuzz run -s`); debug assertions and
# overflow checks are on either way (cargo-fuzz's default). FUZZ_TARGET_DIR: where to build
# (default fuzz/target).
set -euo pipefail
cd "$(dirname "$0")/.."
secs="${FUZZ_SECONDS:-60}"
san="${FUZZ_SANITIZER:-address}"
limit=(-max_total_time="$secs")
if [ -n "${FUZZ_RUNS:-}" ]; then
  limit=(-runs="$FUZZ_RUNS")
fi
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(yaml_objects scenario share_link kubectl share_round_trip)
fi
for t in "${targets[@]}"; do
  echo "== fuzz $t (${limit[*]}, sanitizer $san)"
  start=$SECONDS
  # -rss_limit_mb: a share link or manifest must never make memory grow past this (a single
  # allocation above it fails too); -timeout: no input may take 10 s.
  cargo +nightly fuzz run -s "$san" --target-dir "${FUZZ_TARGET_DIR:-fuzz/target}" "$t" "fuzz/corpus/$t" -- \
    "${limit[@]}" -rss_limit_mb=1024 -max_len=65536 -timeout=10 -print_final_stats=1 2>&1 |
    grep -E "^(stat::|==|INFO: -max_total_time|Done)|ERROR|panicked" || true
  echo "   wall time $((SECONDS - start)) s"
  test ! -d "fuzz/artifacts/$t" || test -z "$(ls -A "fuzz/artifacts/$t" 2>/dev/null)" || { echo "crash found in $t"; exit 1; }
done
