#!/usr/bin/env python3
"""core-line-plugin answering malformed input as core line plugins v1 says (spec sections 1, 9.2,
9.3, 9.12), each case a fresh process fed raw bytes on stdin: what it writes and how it exits.
Usage: plugin_malformed_input.py <core-line-plugin>"""
import json
import subprocess
import sys

PLUGIN = sys.argv[1]
HANDSHAKE = b'{"type":"handshake","protocol_version":"rterm.plugin.v1"}\n'
failures = []


def request(tool, input_, request_id="plugin_req_0123456789abcdef"):
    return (json.dumps({"type": "request", "request_id": request_id, "tool_name": tool,
                        "context": {}, "input": input_}) + "\n").encode()


def run(name, stdin, expect_exit, expect_lines):
    """expect_lines: a list of predicates, one per stdout line; expect_exit: 0, or None for
    any non-zero status."""
    p = subprocess.run([PLUGIN], input=stdin, capture_output=True, timeout=60, env={})
    lines = p.stdout.decode().splitlines()
    # A non-zero status is an exit code the plugin chose: death by a signal (a negative
    # returncode, e.g. a stack overflow) never counts as the expected failure.
    ok = (p.returncode == 0) if expect_exit == 0 else (p.returncode > 0 and
                                                        (expect_exit is None or p.returncode == expect_exit))
    ok = ok and len(lines) == len(expect_lines)
    ok = ok and all(check(json.loads(line)) for check, line in zip(expect_lines, lines))
    print(("ok   " if ok else "FAIL ") + name + f" (exit {p.returncode}, {len(lines)} lines)")
    if not ok:
        failures.append(name)
        print("  stdout:", p.stdout[:400], "\n  stderr:", p.stderr[:400])


def manifest_of(version):
    return lambda m: m["type"] == "handshake" and m["manifest"]["protocol_version"] == version \
        and m["manifest"]["plugin_id"] == "rpckit.text"


def response(status, **fields):
    def check(m):
        if m["type"] != "response" or m["status"] != status:
            return False
        return all(m.get(k) == v for k, v in fields.items())
    return check


handshake_ok = manifest_of("rterm.plugin.v1")

# The first line (spec 9.2: not a handshake -> nothing written, non-zero exit).
run("end of input before the handshake", b"", None, [])
run("an empty first line", b"\n", None, [])
run("a first line that is not JSON", b"hello\n", None, [])
run("a first line that is a request", request("text.stats", {"text": "a"}), None, [])
run("a handshake with trailing bytes", HANDSHAKE[:-1] + b" x\n", None, [])
# Spec 9.3: another version is answered with ours, then exit non-zero without reading on.
run("an unsupported protocol_version",
    b'{"type":"handshake","protocol_version":"rterm.plugin.v9"}\n' + request("text.stats", {"text": "a"}),
    3, [manifest_of("rterm.plugin.v1")])
# Spec section 1: surrounding whitespace and CR are stripped; a last line without LF counts.
run("whitespace and CRLF around the lines",
    b'  ' + HANDSHAKE[:-1] + b' \r\n\t' + request("text.stats", {"text": "a b"})[:-1] + b'\r\n',
    0, [handshake_ok, response("ok", output={"chars": 3, "words": 2, "lines": 1})])
run("a request ended by EOF instead of LF",
    HANDSHAKE + request("text.transform", {"text": "ab", "ops": ["reverse"]})[:-1],
    0, [handshake_ok, response("ok", output={"text": "ba"})])
# The request line (spec 9.12 and section 4).
run("a request line over 1 MiB",
    HANDSHAKE + request("text.stats", {"text": "x" * (1024 * 1024)}), None, [handshake_ok])
run("a request with a numeric request_id",
    HANDSHAKE + b'{"type":"request","request_id":7,"tool_name":"text.stats","context":{},"input":{}}\n',
    None, [handshake_ok])
run("a request nested 100000 deep",
    HANDSHAKE + b'{"type":"request","request_id":"r","tool_name":"t","context":{},"input":' +
    b"[" * 100000 + b"]" * 100000 + b"}\n", None, [handshake_ok])
run("end of input after the handshake", HANDSHAKE, None, [handshake_ok])
# Tool-level errors are answered with status "error" (spec 3.2).
run("an unknown tool",
    HANDSHAKE + request("text.nope", {}), 0,
    [handshake_ok, response("error", error={"code": "not_found", "message": 'this plugin has no tool "text.nope"'})])
run("invalid input",
    HANDSHAKE + request("text.transform", {"text": 5}), 0,
    [handshake_ok, response("error", error={"code": "invalid_input", "message": "input.text must be a string"})])
run("input that is not an object",
    HANDSHAKE + request("text.stats", [1, 2]), 0,
    [handshake_ok, response("error", error={"code": "invalid_input", "message": "input.text must be a string"})])
run("unknown members are ignored",
    HANDSHAKE[:-2] + b',"extra":{"a":[1]}}\n' + request("text.stats", {"text": "\u00e9t\u00e9"}), 0,
    [handshake_ok, response("ok", request_id="plugin_req_0123456789abcdef",
                            output={"chars": 3, "words": 1, "lines": 1})])

if failures:
    print(f"{len(failures)} case(s) failed")
    sys.exit(1)
print("all cases passed")
