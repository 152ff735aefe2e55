#!/usr/bin/env bash
# Builds the release preset and runs rpckit_bench: 5 repetitions, aggregates only.
#   benchmarks/run.sh                               # everything (about a minute)
#   benchmarks/run.sh --benchmark_filter=codec/     # extra flags go to rpckit_bench
# Writes every aggregate (mean, median, stddev, cv) to build/release/bench.json and prints
# the medians, then a summary with the typed/plain ratios (benchmarks/summarize.py).
set -euo pipefail
cd "$(dirname "$0")/.."

build=build/release
cmake --preset release >/dev/null
cmake --build "$build" --target rpckit_bench

json="$build/bench.json"
# The console table keeps the header and the median rows; the JSON keeps all aggregates.
"$build/benchmarks/rpckit_bench" \
  --benchmark_repetitions=5 \
  --benchmark_report_aggregates_only=true \
  --benchmark_out="$json" \
  --benchmark_out_format=json \
  --benchmark_color=false \
  "$@" | awk '!/_(mean|stddev|cv) /'

if command -v python3 >/dev/null; then
  python3 benchmarks/summarize.py "$json"
fi
echo "JSON: $json"
# A failed benchmark (peer died, timeout) is an error line above; make it the exit status too.
if grep -q '"error_occurred": true' "$json"; then
  echo "some benchmarks failed (see ERROR OCCURRED above)" >&2
  exit 1
fi
