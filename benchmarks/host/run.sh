#!/usr/bin/env bash
# Builds the release preset and runs the host-role bench program (about 30 s).
set -euo pipefail
cd "$(dirname "$0")/../.."
cmake --preset release >/dev/null
cmake --build --preset release --target rpckit_host_bench
build/release/benchmarks/host/rpckit_host_bench
