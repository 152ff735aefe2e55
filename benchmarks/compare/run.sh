#!/usr/bin/env bash
# One command: rpckit side by side with a raw framed pipe (the floor), a naive nlohmann
# JSON-RPC pair and a vscode-jsonrpc pair, in interleaved rounds, plus the codec and host
# figures. Builds what it needs (release preset), writes build/release/compare.json and
# prints the summary. About 1 to 2 minutes after the build. See docs/PERFORMANCE.md.
#   benchmarks/compare/run.sh [--rounds N] [--cpus LIST|all] [--out FILE]
# Every program runs under `taskset -c LIST` (default: the first CPU it may use; all: unpinned).
#   python3 benchmarks/compare/summary.py build/release/compare.json   # reprint the summary
#   /usr/bin/python3 benchmarks/compare/plot.py build/release/compare.json  # docs/performance/*.svg
# RPCKIT_BUILD_LOCK=FILE: build under `flock FILE` (a machine shared with other builds).
set -euo pipefail
cd "$(dirname "$0")/../.."

if [ ! -f node_modules/vscode-jsonrpc/package.json ]; then
  echo "compare: node_modules/vscode-jsonrpc is missing: run \`npm ci\` at the repository root" >&2
  echo "         (or tools/bootstrap, which installs everything)" >&2
  exit 1
fi
command -v node >/dev/null || { echo "compare: node not found (tools/bootstrap)" >&2; exit 1; }

lock=()
if [ -n "${RPCKIT_BUILD_LOCK:-}" ]; then lock=(flock "$RPCKIT_BUILD_LOCK"); fi
"${lock[@]}" cmake --preset release >/dev/null
"${lock[@]}" cmake --build build/release --parallel "$(nproc)" \
  --target rpckit_bench rpckit_host_bench bench-plugin rpckit_compare
# The decode anchor (simdjson on-demand), where libsimdjson-dev is installed.
if grep -q '^simdjson_DIR:PATH=/' build/release/CMakeCache.txt; then
  "${lock[@]}" cmake --build build/release --parallel "$(nproc)" --target rpckit_simdjson_probe
fi

exec python3 benchmarks/compare/rounds.py --build build/release "$@"
