#!/usr/bin/env python3
"""A core (host) of core line plugins v1 written from /work/shared/spec/core-line-plugins-v1.md
alone, with Python's standard library, driving core-line-plugin through several tool calls,
one process each: the handshake and its checks in the spec's order (section 3.3), the request,
the response's checks, and teardown (stdin closed, exit 0 within 500 ms), every read under a
deadline. Usage: core_line_host.py <core-line-plugin>"""
import json
import os
import secrets
import select
import subprocess
import sys
import time

PLUGIN = sys.argv[1]
VERSION = "rterm.plugin.v1"
failures = []


class Failure(Exception):
    pass


def read_line(proc, deadline):
    """One line from the plugin's stdout, stripped, at most 1 MiB, before the deadline."""
    fd = proc.stdout.fileno()
    data = b""
    while b"\n" not in data:
        left = deadline - time.monotonic()
        if left <= 0:
            raise Failure("timeout")
        ready, _, _ = select.select([fd], [], [], left)
        if not ready:
            raise Failure("timeout")
        chunk = os.read(fd, 65536)
        if not chunk:
            if not data:
                raise Failure("crashed")
            break
        data += chunk
        if len(data) > 1024 * 1024 + 2 and b"\n" not in data:
            raise Failure("malformed_response")
    line = data.split(b"\n", 1)[0].strip()
    if not line or len(line) > 1024 * 1024:
        raise Failure("malformed_response")
    try:
        message = json.loads(line)
    except ValueError:
        raise Failure("malformed_response")
    if not isinstance(message, dict):
        raise Failure("malformed_response")
    return message


def write(proc, message):
    proc.stdin.write((json.dumps(message, separators=(",", ":")) + "\n").encode())
    proc.stdin.flush()


def invoke(plugin_name, tool, input_, allow):
    start = time.monotonic()
    invoke_deadline = start + 5.0 * 3  # scaled for a loaded machine
    proc = subprocess.Popen([PLUGIN], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, env={})
    try:
        write(proc, {"type": "handshake", "protocol_version": VERSION})
        reply = read_line(proc, min(time.monotonic() + 6.0, invoke_deadline))
        manifest = reply.get("manifest") or {}
        if reply.get("type") != "handshake":
            raise Failure("handshake_failed")
        if str(manifest.get("protocol_version", "")).strip() != VERSION:
            raise Failure("protocol_version_mismatch")
        if not str(manifest.get("plugin_id", "")).strip() or \
                not str(manifest.get("plugin_version", "")).strip() or \
                not manifest.get("exposed_tools") or manifest["plugin_id"] != plugin_name:
            raise Failure("handshake_failed")
        if tool not in manifest["exposed_tools"]:
            raise Failure("tool_not_exposed")
        caps = manifest.get("capabilities") or []
        if allow and not caps:
            raise Failure("capability_not_declared")
        if len(set(caps)) != len(caps) or any(c != c.strip() or not c for c in caps):
            raise Failure("capability_not_declared")
        if any(c not in allow for c in caps):
            raise Failure("capability_not_allowed")

        request_id = "plugin_req_" + secrets.token_hex(8)
        write(proc, {"type": "request", "request_id": request_id, "tool_name": tool,
                     "context": {"workspace_id": "ws-1", "repo_root": "/tmp"}, "input": input_})
        response = read_line(proc, invoke_deadline)
        if response.get("type") != "response" or response.get("request_id") != request_id:
            raise Failure("malformed_response")
        status, error = response.get("status"), response.get("error")
        if status == "error":
            if not isinstance(error, dict) or not str(error.get("message", "")).strip():
                raise Failure("malformed_response")
            proc.kill()
            return ("error", error)
        if status != "ok" or error is not None:
            raise Failure("malformed_response")
        proc.stdin.close()
        try:
            code = proc.wait(timeout=0.5 * 3)
        except subprocess.TimeoutExpired:
            raise Failure("crashed")
        if code != 0:
            raise Failure("crashed")
        return ("ok", response.get("output", {}))
    except Failure as failure:
        proc.kill()
        return ("failure", str(failure))
    finally:
        proc.wait(timeout=2 * 3)


def expect(name, got, want):
    ok = got == want
    print(("ok   " if ok else "FAIL ") + name + ": " + json.dumps(got))
    if not ok:
        failures.append(name)
        print("  expected", json.dumps(want))


expect("text.stats",
       invoke("rpckit.text", "text.stats", {"text": "one two\nthree"}, ["tool.execute"]),
       ("ok", {"chars": 13, "words": 3, "lines": 2}))
expect("text.transform",
       invoke("rpckit.text", "text.transform", {"text": "Stressed", "ops": ["lower", "reverse"]},
              ["tool.execute", "workspace:read"]),
       ("ok", {"text": "desserts"}))
expect("invalid input is the plugin's own error",
       invoke("rpckit.text", "text.transform", {"text": "x", "ops": ["shout"]}, ["tool.execute"]),
       ("error", {"code": "invalid_input", "message": "unknown op shout (upper, lower, reverse, trim, squeeze)"}))
expect("a tool the manifest does not list",
       invoke("rpckit.text", "text.nope", {}, ["tool.execute"]), ("failure", "tool_not_exposed"))
expect("a capability outside the allow-list",
       invoke("rpckit.text", "text.stats", {"text": ""}, ["fs:read"]), ("failure", "capability_not_allowed"))
expect("another bound name",
       invoke("acme.other", "text.stats", {"text": ""}, []), ("failure", "handshake_failed"))

if failures:
    print(f"{len(failures)} case(s) failed")
    sys.exit(1)
print("all cases passed")
