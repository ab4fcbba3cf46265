#!/usr/bin/env bash
# Builds the WebAssembly package and serves the playground on http://127.0.0.1:$PORT/www/
# (PORT defaults to 8080; PORT=0 picks a free port). Installs missing tools first.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

"$root/scripts/install-tools.sh"

# wasm-opt 132 from npm's binaryen (Debian's older wasm-opt produces a broken module).
export PATH="$root/node_modules/.bin:$HOME/.cargo/bin:$PATH"

# Rebuild unless pkg/ is newer than every input (scripts/test.sh has just built it, say).
if [ -f pkg/kubeplay.js ] && [ -f pkg/kubeplay_bg.wasm ] &&
  [ -z "$(find src Cargo.toml Cargo.lock -newer pkg/kubeplay_bg.wasm -print -quit)" ]; then
  echo "[serve] pkg/ is up to date with src/, Cargo.toml and Cargo.lock: not rebuilding"
else
  echo "[serve] wasm-pack build --release --target web"
  wasm-pack build --release --target web --mode no-install
fi

port=${PORT:-8080}
echo "[serve] serving $root on 127.0.0.1 (Ctrl-C stops)"
# A tiny static server: .wasm as application/wasm (for WebAssembly.instantiateStreaming), no
# caching (a rebuilt pkg/ is picked up on reload), and the URL printed once it is listening.
exec python3 -u - "$port" "$root" <<'PY'
import functools
import http.server
import sys

port, root = int(sys.argv[1]), sys.argv[2]


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".js": "text/javascript",
        ".mjs": "text/javascript",
    }

    def end_headers(self):
        self.send_header("Cache-Control", "no-store")
        super().end_headers()


server = http.server.ThreadingHTTPServer(
    ("127.0.0.1", port), functools.partial(Handler, directory=root)
)
print(f"kubeplay playground: http://127.0.0.1:{server.server_address[1]}/www/", flush=True)
try:
    server.serve_forever()
except KeyboardInterrupt:
    pass
finally:
    server.server_close()
PY
