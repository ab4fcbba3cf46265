#!/usr/bin/env bash
# Installs every tool scripts/serve.sh and scripts/test.sh need, skipping whatever is already
# there: the wasm32 target, rustfmt/clippy, Debian's chromium + chromedriver, wasm-bindgen-cli
# (pinned to Cargo.lock), wasm-pack, and the npm packages in package.json (wasm-opt from
# binaryen, playwright-core). Nothing here downloads from GitHub: only crates.io, Debian and npm.
# Safe to run again and again; a cold run takes about 7 minutes (the two cargo installs).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

WASM_PACK_VERSION=0.15.1

say() { printf '[install-tools] %s\n' "$*"; }
die() {
  printf '[install-tools] ERROR: %s\n' "$*" >&2
  exit 1
}

export PATH="$HOME/.cargo/bin:$PATH"

# Runs apt-get as root (directly, or through sudo when we are not root).
apt_install() {
  local sudo=()
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null || die "need root (or sudo) to apt-get install $*"
    sudo=(sudo)
  fi
  if [ -z "${apt_updated:-}" ]; then
    say "apt-get update"
    "${sudo[@]}" apt-get update -q || die "apt-get update failed"
    apt_updated=1
  fi
  say "apt-get install $*"
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q "$@" ||
    die "apt-get install $* failed"
}

# --- Rust: toolchain pieces ------------------------------------------------------------------
command -v cargo >/dev/null || die "cargo not found: install Rust with rustup first"
command -v rustup >/dev/null || die "rustup not found: the wasm32 target is added with rustup"
command -v cc >/dev/null || apt_install gcc libc6-dev

if rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "ok: rust target wasm32-unknown-unknown"
else
  say "rustup target add wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

for component in rustfmt clippy; do
  sub=${component/rustfmt/fmt}
  if cargo "$sub" --version >/dev/null 2>&1; then
    say "ok: cargo $sub"
  else
    say "rustup component add $component"
    rustup component add "$component"
  fi
done

# --- Browser: Debian's chromium and the chromedriver of the same build ---------------------------
if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then
  say "ok: $(/usr/bin/chromium --version 2>/dev/null | head -n1), chromedriver at /usr/bin/chromedriver"
else
  apt_install chromium chromium-driver
  [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ] ||
    die "chromium/chromedriver still missing after apt-get install"
fi

# --- Node (for wasm-opt and Playwright) and Python (the static file server) -------------------
command -v node >/dev/null && command -v npm >/dev/null || apt_install nodejs npm
command -v python3 >/dev/null || apt_install python3

# --- wasm-bindgen-cli: must equal the wasm-bindgen crate version in Cargo.lock exactly ----------
wb_version=$(awk '$0 == "name = \"wasm-bindgen\"" { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
[ -n "$wb_version" ] || die "could not read the wasm-bindgen version from Cargo.lock"
have=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have" = "$wb_version" ]; then
  say "ok: wasm-bindgen $have"
else
  say "cargo install wasm-bindgen-cli --version =$wb_version (have: ${have:-none}; ~4 min cold)"
  # No --locked: the CLI's own lockfile pins a crate version missing from the index.
  cargo install wasm-bindgen-cli --version "=$wb_version"
  have=$(wasm-bindgen --version | awk '{print $2}')
  [ "$have" = "$wb_version" ] || die "wasm-bindgen is $have after install, want $wb_version (PATH: $PATH)"
fi

# --- wasm-pack (always run with --mode no-install, so it never downloads anything) --------------
if command -v wasm-pack >/dev/null; then
  say "ok: $(wasm-pack --version)"
else
  say "cargo install wasm-pack --version =$WASM_PACK_VERSION (~3 min cold)"
  cargo install wasm-pack --version "=$WASM_PACK_VERSION"
  command -v wasm-pack >/dev/null || die "wasm-pack not on PATH after install"
fi

# --- npm packages (exact versions from package.json / package-lock.json) -----------------------
npm_ok() {
  node -e '
    const fs = require("fs");
    const want = JSON.parse(fs.readFileSync("package.json", "utf8")).devDependencies;
    for (const [name, version] of Object.entries(want)) {
      let have = null;
      try { have = JSON.parse(fs.readFileSync(`node_modules/${name}/package.json`, "utf8")).version; } catch {}
      if (have !== version) { console.log(`${name}: have ${have}, want ${version}`); process.exit(1); }
    }'
}
if out=$(npm_ok); then
  say "ok: npm packages ($(node -p 'Object.entries(require("./package.json").devDependencies).map(([n, v]) => n + "@" + v).join(", ")'))"
else
  say "npm ci ($out)"
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund || die "npm ci failed"
  npm_ok >/dev/null || die "npm packages still missing after npm ci"
fi
"$root/node_modules/.bin/wasm-opt" --version >/dev/null || die "node_modules/.bin/wasm-opt does not run"

say "all tools present"
