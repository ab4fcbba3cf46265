#!/usr/bin/env bash
# Runs every fuzz target for a fixed time (default 60 s each; FUZZ_SECONDS overrides), starting
# from the committed corpus in fuzz/corpus/<target>/. Needs the nightly toolchain and cargo-fuzz
# (`cargo install cargo-fuzz`). New corpus entries stay untracked (see fuzz/.gitignore); crashes
# land in fuzz/artifacts/<target>/.
#   scripts/fuzz.sh                 # all targets
#   FUZZ_SECONDS=600 scripts/fuzz.sh share_link kubectl
set -euo pipefail
cd "$(dirname "$0")/.."
secs="${FUZZ_SECONDS:-60}"
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(yaml_objects scenario share_link kubectl share_round_trip)
fi
for t in "${targets[@]}"; do
  echo "== fuzz $t for ${secs}s"
  # -rss_limit_mb: a share link or manifest must never make memory grow past this.
  cargo +nightly fuzz run "$t" "fuzz/corpus/$t" -- \
    -max_total_time="$secs" -rss_limit_mb=1024 -max_len=65536 -timeout=10 -print_final_stats=1 2>&1 |
    grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb|==|INFO: -max_total_time|Done)|ERROR|panicked" || true
  test ! -d "fuzz/artifacts/$t" || test -z "$(ls -A "fuzz/artifacts/$t" 2>/dev/null)" || { echo "crash found in $t"; exit 1; }
done
