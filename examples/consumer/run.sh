#!/usr/bin/env bash
# Builds this project against an installed rpckit and runs it:
#   examples/consumer/run.sh <rpckit install prefix> <build dir>
# consumer-echo must complete its session (exit 0); the StreamNook plugin must answer a
# host's initialize on stdin and exit 0 at EOF; consumer-validate must accept a valid exchange
# and name the member of an invalid one; the MCP server must count words for a client's
# tools/call, and be the code README.md shows.
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

schema="$prefix/share/rpckit/schema/protocol.json"
"$build/consumer-validate" "$schema" '{"jsonrpc":"2.0","id":1,"method":"ping"}' \
  '{"jsonrpc":"2.0","id":1,"result":{}}'
if report="$("$build/consumer-validate" "$schema" \
     '{"jsonrpc":"2.0","method":"on_stream_stop","params":{"channel_id":7}}')"; then
  echo "FAILED: consumer-validate accepted a channel_id of the wrong type"; exit 1
fi
echo "$report"
case "$report" in
  *'/params/channel_id: expected a value of type string'*) echo "ok" ;;
  *) echo "FAILED: consumer-validate did not name /params/channel_id"; exit 1 ;;
esac

# The MCP server: a client's session, one line per message, then the end of stdin.
answer="$(printf '%s\n' \
  '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"run.sh","version":"1"}}}' \
  '{"jsonrpc":"2.0","method":"notifications/initialized"}' \
  '{"jsonrpc":"2.0","id":2,"method":"tools/list"}' \
  '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"count_words","arguments":{"text":"one two  three"}}}' \
  | "$build/consumer-mcp-server")"
echo "consumer-mcp-server: $answer"
case "$answer" in
  *'"inputSchema":{"properties":{"text":'*'"required":["text"]'*'"name":"count_words"'*'"id":3'*'"structuredContent":{"words":3}'*) echo "ok" ;;
  *) echo "FAILED: no count of three words, or no input schema from WordCountArgs"; exit 1 ;;
esac
# Arguments that do not decode: a tool error (isError) that names the member.
bad="$(printf '%s\n' \
  '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"run.sh","version":"1"}}}' \
  '{"jsonrpc":"2.0","method":"notifications/initialized"}' \
  '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"count_words","arguments":{"text":7}}}' \
  | "$build/consumer-mcp-server")"
case "$bad" in
  *'"id":2'*'arguments.text'*'"isError":true'*) echo "ok" ;;
  *) echo "FAILED: a number for text is not a tool error naming arguments.text: $bad"; exit 1 ;;
esac
# README.md's "Writing an MCP server in C++" shows this very file.
shown="$(awk '/^## Writing an MCP server in C\+\+/{s=1} s&&/^```cpp$/{c=1;next} c&&/^```$/{exit} c' "$here/../../README.md")"
if [ "$shown" != "$(cat "$here/mcp_server.cpp")" ]; then
  echo "FAILED: README.md's MCP server is not examples/consumer/mcp_server.cpp"; exit 1
fi
echo "ok: README.md shows examples/consumer/mcp_server.cpp"
