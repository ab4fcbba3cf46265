#!/usr/bin/env bash
# Runs every check kubeplay has, in order, and stops at the first failure (non-zero exit):
# format, clippy (host and wasm32), host tests, the release WebAssembly build, the wasm-bindgen
# tests in headless Chromium, and the Playwright smoke test of the served page.
# Installs missing tools first (scripts/install-tools.sh).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

"$root/scripts/install-tools.sh"

# node_modules/.bin first: wasm-opt 132 (npm binaryen). chromedriver is /usr/bin/chromedriver.
export PATH="$root/node_modules/.bin:$HOME/.cargo/bin:$PATH"
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"

start=$SECONDS
step() { printf '\n==> [%4ss] %s\n' "$((SECONDS - start))" "$*"; }
on_exit() {
  local rc=$?
  if [ "$rc" -ne 0 ]; then
    printf '\n==> FAILED (exit %s) after %ss: %s\n' "$rc" "$((SECONDS - start))" "${current:-setup}" >&2
  fi
}
trap on_exit EXIT
run() {
  current="$*"
  step "$*"
  "$@"
}

run cargo fmt --all --check
run cargo clippy --all-targets -- -D warnings
# src/wasm.rs and tests/web.rs only compile for wasm32: lint them there too.
run cargo clippy --target wasm32-unknown-unknown --lib --test web --test web_determinism -- -D warnings
run cargo test
# The release build of the library for wasm32 (`cargo build --lib --release --target
# wasm32-unknown-unknown`), then wasm-bindgen and wasm-opt into pkg/: what the page loads.
run wasm-pack build --release --target web --mode no-install
# tests/web.rs (the wasm API) and tests/web_determinism.rs (built-in scenarios in the browser give
# the native traces byte for byte) in headless Chromium through wasm-bindgen-test-runner and
# /usr/bin/chromedriver.
# Only the browser suite (`--test web`; not the lib's unit tests, which use native-only
# dev-dependencies such as proptest and k8s-openapi — `wasm-pack test` would build those too).
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
  CHROMEDRIVER=/usr/bin/chromedriver \
  run cargo test --target wasm32-unknown-unknown --test web --test web_determinism
# Short fixed-time fuzzing when nightly and cargo-fuzz are present (the corpus replay in
# tests/fuzz_corpus.rs runs the same bodies under `cargo test` everywhere).
if cargo +nightly --version >/dev/null 2>&1 && cargo fuzz --version >/dev/null 2>&1; then
  FUZZ_SECONDS="${FUZZ_SECONDS:-10}" run scripts/fuzz.sh
fi
# The served page (scripts/serve.sh on a free port) in Chromium through playwright-core.
run node --test --test-reporter=spec tests/e2e/

current=""
step "all checks passed"
