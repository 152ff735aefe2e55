#!/usr/bin/env python3
"""A core line plugin (rterm.plugin.v1) written from /work/shared/spec/core-line-plugins-v1.md
alone, with Python's standard library: the spec's own example, acme.wordcount 0.3.1 exposing
acme.count_words. It reads one line, answers the handshake, reads one line, answers the
request, and exits 0. core-line-host drives it (tests/core_line/CMakeLists.txt)."""
import json
import sys

VERSION = "rterm.plugin.v1"


def read_line():
    line = sys.stdin.buffer.readline(1024 * 1024 + 2)
    if not line:
        sys.exit(2)
    return json.loads(line.decode("utf-8").strip())


def write(message):
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()


hello = read_line()
if hello.get("type") != "handshake":
    sys.exit(2)  # spec 9.2: nothing written
write({"type": "handshake", "manifest": {
    "plugin_id": "acme.wordcount", "plugin_version": "0.3.1", "protocol_version": VERSION,
    "exposed_tools": ["acme.count_words"], "capabilities": ["tool.execute"]}})
if hello.get("protocol_version", "").strip() != VERSION:
    sys.exit(3)  # spec 9.3

request = read_line()
if request.get("type") != "request" or not isinstance(request.get("request_id"), str):
    sys.exit(2)
answer = {"type": "response", "request_id": request["request_id"]}
text = request.get("input", {}).get("text") if isinstance(request.get("input"), dict) else None
if request.get("tool_name") != "acme.count_words":
    answer.update(status="error", error={"code": "not_found", "message": "unknown tool"})
elif not isinstance(text, str):
    answer.update(status="error", error={"code": "invalid_input", "message": "input.text must be a string"})
else:
    answer.update(status="ok", output={"words": len(text.split())}, metadata={"engine": "python"})
write(answer)
sys.exit(0)  # spec 9.9: exit once the response is flushed
