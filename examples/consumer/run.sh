#!/usr/bin/env bash
# Builds this project against an installed rpckit and runs it:
#   examples/consumer/run.sh <rpckit install prefix> <build dir>
# consumer-echo must complete its session (exit 0); the StreamNook plugin must answer a
# host's initialize on stdin and exit 0 at EOF.
set -euo pipefail
prefix="$(cd "$1" && pwd)"
build="$2"
here="$(cd "$(dirname "$0")" && pwd)"
cmake -S "$here" -B "$build" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Debug
cmake --build "$build"

"$build/consumer-echo"

body='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocol_version":1,"host_version":"7.8.6","plugin_id":"dev.rpckit.consumer","granted":{"events":["on_followed_live"],"host_methods":["get_followed_live","log"],"credentials":[],"ui":[]},"data_dir":"/tmp","log_dir":"/tmp"}}'
answer="$(printf 'Content-Length: %d\r\n\r\n%s' "${#body}" "$body" | "$build/consumer-streamnook-plugin")"
echo "consumer-streamnook-plugin: $answer"
case "$answer" in
  *'"id":1'*'"hooks":["on_followed_live"]'*) echo "ok" ;;
  *) echo "FAILED: no initialize result with the hooks"; exit 1 ;;
esac
