#!/usr/bin/env python3
"""A hostile MCP client, written from the MCP spec (revision 2025-11-25, stdio transport) and
this project's MCP profile (schema/mcp/protocol.json x-profile), Python's standard library only.

    hostile_mcp_client.py <case> -- <server command> [args...]

It spawns the server, runs the handshake (initialize, then notifications/initialized; cases
about the handshake run their own), then runs <case>: what a stranger of a client could send,
each answer checked against the spec, the profile and rpckit's documented limits. Then it
checks that the server is still healthy and correct (ping and a tools/call of echo answered),
that its peak memory stayed bounded, and that closing stdin makes it exit with code 0 (cases
that end the input themselves check their own exit). Throughout, every line on the server's
stdout must be a JSON-RPC 2.0 message on a line of its own, every answer must be to a request
this client sent, and the only one to it (a stray or a second answer fails, named by id and
line). Exit status 0 when every check passed; the failures on stderr otherwise. `--list`
prints the cases.

What the profile and the runtime say, as checked here:
- NDJSON, one message per line, at most max_line_bytes (16 MiB) a line: a longer line is
  discarded as it arrives (never buffered whole), unanswered, and the session goes on.
- JSON nested at most max_json_depth (256) levels, the envelope object counting as 1; deeper
  (and numbers beyond a double) is -32600 with the request's id when it can be read; else the
  id is left out or null as the profile's unknown_id says (read from schema/mcp/protocol.json;
  schema/mcp/README.md item 5).
- A line that is not JSON (invalid UTF-8 and lone surrogate escapes included) is logged and
  dropped, nothing answered (not_json "log"). Blank lines are skipped; CRLF ends a line too.
- Batches, scalars, objects without a method/result/error, jsonrpc other than "2.0", ids other
  than a string or a 64-bit integer: -32600 (with the id when it can be read).
- Ids: integer or string accepted, an answer's id equals its request's in kind and value.
- The lifecycle is not enforced by the plugin role (README item 4): requests before
  initialize are served, a second initialize is answered again.
- notifications/cancelled (the profile's cancel): the request it names, running or queued, is
  stopped and never answered; one naming nothing in flight is ignored; initialize never is.
- The server stops at stdin EOF with code 0; a stream that ends inside a line is a broken
  stream (code 1, PluginSession::run).
"""
import json
import os
import queue
import subprocess
import sys
import tempfile
import threading
import time

from wire import (DEEP, INVALID_REQUEST, METHOD_NOT_FOUND, MIB, WAIT_S, Answers, Expectations,
                  deep)

INVALID_PARAMS = -32602
RESOURCE_NOT_FOUND = -32002
PROTOCOL_VERSION = "2025-11-25"
MAX_LINE = 16 * MIB           # max_line_bytes
MAX_DEPTH = 256               # max_json_depth, the envelope object counting as 1
PEAK_MEMORY_LIMIT = 1 << 30   # VmHWM after any case
OVERSIZE_LINE = 256 * MIB     # the over-long line oversize-line sends
# What discarding it may add to the baseline VmHWM: half the line, so a reader that held it
# whole fails. The reader itself grows to twice the cap (a 32 MiB buffer) before it drops a
# line: +36 MiB measured in the dev build, +93 MiB under ASan, whose quarantine keeps the
# freed buffers resident.
OVERSIZE_GROWTH = OVERSIZE_LINE // 2
PING_CLIENT_DEADLINE = 10     # seconds: the sample's ping_client waits this long
BIG_WAIT_S = 4 * WAIT_S       # bound on the answer to a 12-16 MiB line (sanitizer builds)
FIRST_ID = 1000               # request ids from here; the cases' literal ids are other values


def profile_unknown_id():
    """x-profile `unknown_id` of schema/mcp/protocol.json: how an answer to a request whose id
    could not be read carries it, "omit" (MCP's rule) or "null" (JSON-RPC's, the default;
    schema/mcp/README.md item 5)."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "schema", "mcp",
                        "protocol.json")
    with open(path) as f:
        return json.load(f).get("x-profile", {}).get("unknown_id", "null")


UNKNOWN_ID = profile_unknown_id()


def log(text):
    sys.stderr.write("[hostile_mcp_client] %s\n" % text)
    sys.stderr.flush()


def request_text(rid, method, params=None):
    message = {"jsonrpc": "2.0", "id": rid, "method": method}
    if params is not None:
        message["params"] = params
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def echo_text(rid, text):
    return request_text(rid, "tools/call", {"name": "echo", "arguments": {"text": text}})


class SlowAnswers(Answers):
    """Answers whose default wait can be raised for the cases whose answers are 12-16 MiB
    lines (a sanitizer build parses and writes those slowly)."""
    wait_s = WAIT_S

    def response(self, id_json, timeout=None):
        return super().response(id_json, self.wait_s if timeout is None else timeout)


class LineWire:
    """The client's side of the server's stdin: one message per line (NDJSON)."""

    def __init__(self, wfile):
        self.wfile = wfile
        self.lock = threading.Lock()

    def write_frame(self, body):
        if isinstance(body, str):
            body = body.encode("utf-8")
        self.write_raw(body + b"\n")

    def write_raw(self, data):
        with self.lock:
            self.wfile.write(data)
            self.wfile.flush()

    def close(self):
        with self.lock:
            try:
                self.wfile.close()
            except BrokenPipeError:
                pass


class Server:
    """The server process as seen from the client side."""

    def __init__(self, command, state_dir):
        self.stderr_path = os.path.join(state_dir, "stderr.log")
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=open(self.stderr_path, "wb"))
        self.wire = LineWire(self.process.stdin)
        self.answers = SlowAnswers()
        # What the server sent this client that is not an answer (method, id or None,
        # params, arrival time), in order; guarded by `calls`.
        self.calls = threading.Condition()
        self.sent = []
        self.answer_pings = True   # the server's ping requests are answered unless cleared
        self.stdout_problems = []  # lines on stdout that are not JSON-RPC messages
        self.arrival = {}          # answer id (JSON text) -> monotonic arrival times
        self.reading = threading.Event()
        self.reading.set()
        self.next_id = FIRST_ID
        # Answers to the server's requests are written by their own thread: the reader must
        # never wait on a write (a flood may hold the pipe), or both sides could wait forever.
        self.replies = queue.Queue()
        self.reader = threading.Thread(target=self.serve, daemon=True)
        self.reader.start()
        threading.Thread(target=self.send_replies, daemon=True).start()

    def serve(self):
        stdout = self.process.stdout
        while True:
            self.reading.wait()
            line = stdout.readline()
            if not line:
                return
            if not line.endswith(b"\n"):
                self.stdout_problems.append("a last line without a newline: %r" % line[:200])
            try:
                message = json.loads(line)
            except ValueError as e:
                self.stdout_problems.append("not JSON (%s): %r" % (e, line[:200]))
                continue
            if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
                self.stdout_problems.append("not a JSON-RPC 2.0 message: %r" % line[:200])
                continue
            method = message.get("method")
            if method is None:
                with self.calls:
                    self.arrival.setdefault(json.dumps(message.get("id")), []).append(
                        time.monotonic())
                self.answers.add(message, line)
                continue
            with self.calls:
                self.sent.append((method, message.get("id"), message.get("params"),
                                  time.monotonic()))
                answer = self.answer_pings
                self.calls.notify_all()
            if "id" in message and answer:
                result = {} if method == "ping" else None
                if result is None:
                    self.replies.put(json.dumps({"jsonrpc": "2.0", "id": message["id"], "error": {
                        "code": METHOD_NOT_FOUND, "message": "not a client method here"}}))
                else:
                    self.replies.put(json.dumps({"jsonrpc": "2.0", "id": message["id"],
                                                 "result": result}))

    def send_replies(self):
        while True:
            body = self.replies.get()
            try:
                self.wire.write_frame(body)
            except (BrokenPipeError, ValueError, OSError):
                return

    def wait_sent(self, match, timeout=WAIT_S):
        """The first message the server sent for which match(method, id, params) holds."""
        found = []

        def look():
            for m in self.sent:
                if match(*m[:3]):
                    found.append(m)
                    return True
            return False
        with self.calls:
            self.calls.wait_for(look, timeout)
        return found[0] if found else None

    def sent_so_far(self):
        with self.calls:
            return list(self.sent)

    def arrived(self, id_json):
        with self.calls:
            return list(self.arrival.get(id_json, []))

    def fresh_id(self):
        self.next_id += 1
        return self.next_id

    def peak_memory(self):
        """VmHWM in bytes, or None when the process is gone."""
        try:
            with open("/proc/%d/status" % self.process.pid) as f:
                for line in f:
                    if line.startswith("VmHWM:"):
                        return int(line.split()[1]) * 1024
        except OSError:
            return None
        return None

    def stderr_text(self):
        with open(self.stderr_path, "rb") as f:
            return f.read().decode("utf-8", "replace")

    def close_stdin(self):
        self.wire.close()

    def wait_exit(self, timeout=WAIT_S):
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            return None


class Checks(Expectations):
    def __init__(self, server):
        super().__init__(server.wire, server.answers, log)
        self.server = server

    def check(self, what, ok, got=None):
        """One check of a condition; `got` is what was seen (shown when it fails)."""
        self.checked += 1
        if not ok:
            self.failures.append("%s: %s" % (what, json.dumps(got)[:300]))
            log("FAIL %s: %s" % (what, json.dumps(got)[:300]))
        return ok

    def request(self, what, method, params=None, code=None, rid=None):
        rid = self.server.fresh_id() if rid is None else rid
        return self.expect(what, request_text(rid, method, params), json.dumps(rid), code)

    def send_request(self, method, params=None, rid=None):
        """Sends a request without waiting for its answer; returns its id (JSON text)."""
        rid = self.server.fresh_id() if rid is None else rid
        self.answers.sent_request(json.dumps(rid))
        self.wire.write_frame(request_text(rid, method, params))
        return json.dumps(rid)

    def notify(self, method, params=None):
        message = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self.wire.write_frame(json.dumps(message))

    def echo(self, what, text, rid=None):
        """tools/call echo: answered with exactly `text` as its one text block."""
        got = self.request(what, "tools/call", {"name": "echo", "arguments": {"text": text}},
                           rid=rid)
        if got is not None:
            self.check_echo(what, got, text)
        return got

    def check_echo(self, what, got, text):
        result = got.get("result") or {}
        content = result.get("content")
        ok = (not result.get("isError") and isinstance(content, list) and len(content) == 1
              and content[0].get("type") == "text" and content[0].get("text") == text)
        shown = got
        if len(text) > 200:  # what differs, not 12 MiB of it
            got_text = content[0].get("text") if isinstance(content, list) and content and \
                isinstance(content[0], dict) else None
            shown = {"id": got.get("id"), "isError": result.get("isError"),
                     "expected length": len(text),
                     "got length": len(got_text) if isinstance(got_text, str) else None,
                     "first difference": next((n for n, (x, y) in enumerate(zip(
                         got_text, text)) if x != y), None) if isinstance(got_text, str) else None}
        return self.check("%s: echo returns its text exactly" % what, ok, shown)

    def ping(self, what):
        """The server answers in order what it reads in order; once this ping is answered,
        nothing sent before it may have been answered that should not have been."""
        got = self.request(what + ": ping", "ping", {})
        if got is not None:
            self.check(what + ": ping's result is {}", got.get("result") == {}, got)
        self.no_null_id_answers(what)
        self.check_answers(what)
        return got

    def expect_null_id(self, what, body, code):
        """The answer to `body` is an error `code` whose id could not be read: written as the
        profile's unknown_id says (left out, or null)."""
        got = super().expect_null_id(what, body, code)
        if got is not None:
            self.check("%s: the unknown id is %s" % (what, "left out" if UNKNOWN_ID == "omit"
                                                      else "null"),
                       ("id" not in got) if UNKNOWN_ID == "omit" else
                       ("id" in got and got["id"] is None), got)
        return got

    def no_null_id_answers(self, what):
        stray = self.answers.take_stray()
        self.check(what + ": no answer with a null id", not stray, stray)

    def handshake(self):
        got = self.request("initialize", "initialize", {
            "protocolVersion": PROTOCOL_VERSION,
            "capabilities": {"roots": {"listChanged": True}, "sampling": {}},
            "clientInfo": {"name": "hostile-mcp-client", "version": "0.0.1"}})
        if got is None:
            return None
        result = got.get("result") or {}
        self.check("initialize answers protocolVersion %s" % PROTOCOL_VERSION,
                   result.get("protocolVersion") == PROTOCOL_VERSION, got)
        self.check("initialize declares the tools capability",
                   isinstance(result.get("capabilities", {}).get("tools"), dict), got)
        self.notify("notifications/initialized")
        return got

    def healthy(self, what):
        """ping and echo answered, promptly."""
        start = time.monotonic()
        self.ping(what)
        self.echo(what + ": echo", "still here \u00e9\U0001F600")
        return time.monotonic() - start


def wait_answer(c, id_json, what, timeout=WAIT_S):
    got = c.answers.response(id_json, timeout)
    c.check(what + " (answered within %d s)" % timeout, got is not None, None)
    return got


# ---- cases: each runs after a good handshake, unless it says otherwise ---------------------

def deep_nesting(c):
    """Depth 256 (envelope 1, params 2, arguments 3, then 253 arrays) is served; 257 and far
    deeper are -32600 with the request's id, even when the id comes after the deep member;
    a deep notification gets -32600 with a null id (README item 5)."""
    inner = MAX_DEPTH - 3
    for what, value in (("arrays", deep(inner)),
                        ("objects", '{"a":' * inner + "1" + "}" * inner)):
        rid = c.server.fresh_id()
        got = c.expect("echo with an extra argument of %s, depth %d in all" % (what, MAX_DEPTH),
                       '{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo",'
                       '"arguments":{"text":"deep ok","deep":%s}}}' % (rid, value), str(rid))
        if got is not None:
            c.check_echo("deep %s within the cap" % what, got, "deep ok")
    rid = c.server.fresh_id()
    got = c.expect("add with a = arrays %d deep in all: a tool error" % MAX_DEPTH,
                   '{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"add",'
                   '"arguments":{"a":%s,"b":1}}}' % (rid, deep(inner)), str(rid))
    if got is not None:
        c.check("add's deep a is a tool error (isError), not a crash",
                (got.get("result") or {}).get("isError") is True, got)
    for levels in (inner + 1, DEEP):
        rid = c.server.fresh_id()
        got = c.expect("echo with an argument %d deep in all" % (levels + 3),
                       '{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo",'
                       '"arguments":{"text":"x","deep":%s}}}' % (rid, deep(levels)), str(rid),
                       INVALID_REQUEST)
        c.check("-32600 for depth %d names the limit" % (levels + 3), got is not None and
                "256" in got.get("error", {}).get("message", ""), got)
    c.expect("the id after a member 30,000 objects deep",
             '{"jsonrpc":"2.0","method":"tools/call","params":{"name":"echo","arguments":'
             '{"text":"x","deep":%s}},"id":"after"}' % ('{"a":' * DEEP + "1" + "}" * DEEP),
             '"after"', INVALID_REQUEST)
    c.expect_null_id("a notification with params 30,000 deep",
                     '{"jsonrpc":"2.0","method":"notifications/roots/list_changed","params":'
                     '{"x":%s}}' % deep(DEEP), INVALID_REQUEST)
    c.expect_null_id("a line that is only 100,000 open brackets (not JSON: dropped; then "
                     "a line 30,000 deep without id)",
                     b"[" * 100000 + b"\n" + deep(DEEP).encode(), INVALID_REQUEST)
    c.ping("after deep lines")


def numbers(c):
    """A number beyond a double is past the runtime's limits: -32600 with the id. Big, tiny
    and negative-zero numbers that fit are served; a sum that overflows must still be a
    result that conforms to add's outputSchema (sum: number) or a tool error."""
    rid = c.server.fresh_id()
    c.expect("add with a = 1e400", '{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":'
             '{"name":"add","arguments":{"a":1e400,"b":1}}}' % rid, str(rid), INVALID_REQUEST)
    rid = c.server.fresh_id()
    got = c.expect("add 2 + 1e-400 (a double holds it: 0)",
                   '{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"add",'
                   '"arguments":{"a":2,"b":1e-400}}}' % rid, str(rid))
    if got is not None:
        c.check("add 2 + 1e-400 is 2",
                (got.get("result") or {}).get("structuredContent") == {"sum": 2.0}, got)
    rid = c.server.fresh_id()
    got = c.expect("add -0 + 123456789012345678901234567890",
                   '{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"add",'
                   '"arguments":{"a":-0,"b":123456789012345678901234567890}}}' % rid, str(rid))
    if got is not None:
        s = ((got.get("result") or {}).get("structuredContent") or {}).get("sum")
        c.check("a huge integer argument is added as a double",
                isinstance(s, (int, float)) and abs(s - 1.2345678901234568e29) < 1e15, got)
    got = c.request("add 1e308 + 1e308 (overflows a double)", "tools/call",
                    {"name": "add", "arguments": {"a": 1e308, "b": 1e308}})
    if got is not None:
        result = got.get("result") or {}
        s = (result.get("structuredContent") or {}).get("sum")
        c.check("an overflowing sum is a tool error or a structuredContent that conforms to "
                "add's outputSchema (sum: number, required) - MCP tools, \"Output Schema\"",
                result.get("isError") is True or (isinstance(s, (int, float)) and
                                                  not isinstance(s, bool)), got)
    c.ping("after numbers")


def oversize_line(c):
    """A line over 16 MiB is discarded as it arrives: no answer to it (its id was readable,
    yet nothing may answer it), the session goes on, and memory stays bounded: a 256 MiB line
    adds less than half its size to the peak (it is never buffered whole)."""
    c.echo("warm-up echo of 1 MiB", "w" * MIB)
    baseline = c.server.peak_memory()
    unannounced = c.server.fresh_id()  # never announced: any answer to it is a stray
    c.wire.write_frame(echo_text(unannounced, "o" * (17 * MIB)))
    c.ping("after a 17 MiB echo line")
    c.echo("echo after the 17 MiB line", "after 17")
    head = b'{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo",' \
           b'"arguments":{"text":"' % c.server.fresh_id()
    chunk = b"z" * MIB
    c.wire.write_raw(head)
    for _ in range(OVERSIZE_LINE // MIB):
        c.wire.write_raw(chunk)
    c.wire.write_raw(b'"}}}\n')
    c.ping("after a %d MiB echo line" % (OVERSIZE_LINE >> 20))
    c.echo("echo after the %d MiB line" % (OVERSIZE_LINE >> 20), "after it")
    peak = c.server.peak_memory()
    if baseline is not None and peak is not None:
        log("oversize: VmHWM %d MiB before, %d MiB after %d MiB of over-long lines" % (
            baseline >> 20, peak >> 20, (OVERSIZE_LINE >> 20) + 17))
        c.check("peak memory (VmHWM) grows by less than %d MiB over %d MiB while discarding "
                "a %d MiB line" % (OVERSIZE_GROWTH >> 20, baseline >> 20, OVERSIZE_LINE >> 20),
                peak - baseline < OVERSIZE_GROWTH, "%d MiB" % ((peak - baseline) >> 20))
    c.check("over-long lines are logged on stderr", "exceeds" in c.server.stderr_text(),
            c.server.stderr_text()[-300:])


def at_the_cap(c):
    """A line of exactly max_line_bytes is served (answered whole); one byte more (with or
    without a CR before the LF) is discarded unanswered."""
    c.answers.wait_s = BIG_WAIT_S
    rid = c.server.fresh_id()
    overhead = len(echo_text(rid, ""))
    text = "c" * (MAX_LINE - overhead)
    body = echo_text(rid, text)
    c.check("the test line is exactly %d bytes" % MAX_LINE, len(body) == MAX_LINE, len(body))
    got = c.expect("echo on a line of exactly 16 MiB", body, str(rid))
    if got is not None:
        c.check_echo("echo at the cap", got, text)
    rid = c.server.fresh_id()
    c.answers.sent_request(str(rid))
    c.wire.write_raw(echo_text(rid, text).encode() + b"\r\n")
    got = c.answers.response(str(rid))
    if c.check("echo on a line of exactly 16 MiB ending CRLF answered", got is not None):
        c.check_echo("echo at the cap, CRLF", got, text)
    over = c.server.fresh_id()
    c.wire.write_frame(echo_text(over, "c" * (MAX_LINE - overhead + 1)))
    c.ping("after a line one byte over the cap")
    over = c.server.fresh_id()
    c.wire.write_raw(echo_text(over, "c" * (MAX_LINE - overhead + 1)).encode() + b"\r\n")
    c.ping("after a line one byte over the cap, CRLF")


def huge_legal_line(c):
    """A 12 MiB echo text, of every kind of character JSON must escape or may carry, is
    answered whole and exactly, on one line."""
    c.answers.wait_s = BIG_WAIT_S
    unit = "abc \u00e9\u4e2d\U0001F600 \"quoted\" back\\slash\ttab\nnewline\x01\x7f/"
    mixed = unit * (4 * MIB // len(unit.encode("utf-8")))
    text = mixed + "z" * (12 * MIB - len(mixed.encode("utf-8")))
    rid = c.server.fresh_id()
    body = echo_text(rid, text)
    c.check("the request line is under the cap", len(body.encode()) < MAX_LINE,
            len(body.encode()))
    got = c.expect("a 12 MiB echo", body, str(rid))
    if got is not None:
        c.check_echo("12 MiB echo", got, text)
    c.check("the echoed text is 12 MiB of UTF-8", len(text.encode("utf-8")) == 12 * MIB,
            len(text.encode("utf-8")))
    c.echo("echo after the 12 MiB one", "small")


def notification_flood(c):
    """200,000 notifications (roots/list_changed, cancelled for ids never sent, progress for
    a token nobody has, an unknown notification) as fast as they can be written: none is
    answered; a ping after them is."""
    kinds = [b'{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}',
             b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":%d,'
             b'"reason":"flood"}}',
             b'{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":'
             b'"nobody","progress":%d}}',
             b'{"jsonrpc":"2.0","method":"notifications/no_such_thing","params":{"n":%d}}',
             b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"s%d"}}']
    count = 200000
    start = time.monotonic()
    for base in range(0, count, 10000):
        c.wire.write_raw(b"\n".join(
            (k % (base + i)) if b"%d" in k else k
            for i, k in ((i, kinds[(base + i) % len(kinds)]) for i in range(10000))) + b"\n")
    log("notification-flood: %d written in %.1f s" % (count, time.monotonic() - start))
    c.ping("after %d notifications" % count)
    c.echo("echo after the flood", "after the flood")


def request_flood(c):
    """50,000 pings and echoes written while this client does not read: the server's answers
    fill the pipe, it stops reading, this side's writes block (rpckit's queue is bounded and
    back-pressures, it sheds nothing). Then reading again: every request answered exactly
    once, with the right result."""
    count = 50000
    c.server.reading.clear()
    first = c.server.next_id + 1
    c.server.next_id += count
    c.answers.sent_requests(str(first + i) for i in range(count))

    def body(i):
        rid = first + i
        return (echo_text(rid, "e%d" % rid) if i % 5 == 0 else request_text(rid, "ping", {}))

    def flood():
        for start in range(0, count, 1000):
            c.wire.write_raw("".join(body(i) + "\n" for i in range(
                start, min(start + 1000, count))).encode())
    writer = threading.Thread(target=flood, daemon=True)
    writer.start()
    writer.join(3)  # long enough to fill every buffer on the way; correctness does not hang on it
    blocked = writer.is_alive()
    c.server.reading.set()
    writer.join(3 * WAIT_S)
    c.check("the flood was written", not writer.is_alive())
    log("request-flood: writer %s while not reading" % ("blocked" if blocked else "finished"))
    deadline = time.monotonic() + 3 * WAIT_S  # one outer bound for all of them
    missing, wrong = [], []
    for i in range(count):
        got = c.answers.response(str(first + i), max(0.0, deadline - time.monotonic()))
        if got is None:
            missing.append(first + i)
        elif i % 5 == 0:
            content = (got.get("result") or {}).get("content") or [{}]
            if content[0].get("text") != "e%d" % (first + i):
                wrong.append(got)
        elif got.get("result") != {}:
            wrong.append(got)
    c.check("every one of %d requests answered" % count, not missing,
            {"missing": len(missing), "first missing": missing[:5]})
    c.check("every answer is its request's", not wrong, wrong[:3])
    c.ping("after the flood")


def task_flood(c):
    """tools/call as a task (basic/utilities/tasks), 300 written at once, each a count of 100
    steps a second apart: the server keeps at most its bound of tasks (100) and refuses the rest
    with -32603, lets at most 8 tasks/result wait on one task and refuses more at once, answers
    pings and unknown task ids meanwhile, and tasks/cancel ends each task (its waiters get the
    cancelled error). What still runs at the end of stdin is cancelled by the server's exit."""
    count, bound = 300, 100
    ids = [c.send_request("tools/call", {"name": "count", "arguments": {"to": 100, "delay_ms": 1000},
                                         "task": {"ttl": 60000}}) for _ in range(count)]
    created, refused, other = [], 0, []
    for rid in ids:
        got = c.answers.response(rid) or {}
        task = (got.get("result") or {}).get("task") or {}
        if task.get("status") == "working":
            created.append(task.get("taskId"))
        elif (got.get("error") or {}).get("code") == -32603:
            refused += 1
        else:
            other.append(got)
    c.check("%d tasks created of %d asked (the bound)" % (len(created), count),
            len(created) == bound and len(set(created)) == bound, len(created))
    c.check("the others refused with -32603", refused == count - bound and not other,
            {"refused": refused, "other": other[:3]})
    c.ping("with %d tasks running" % bound)
    c.request("tasks/get of an unknown task: -32602", "tasks/get", {"taskId": "nope"}, code=-32602)
    c.request("tasks/list with a cursor it never gave: -32602", "tasks/list", {"cursor": "x"},
              code=-32602)
    listed = c.request("tasks/list", "tasks/list", {}) or {}
    c.check("tasks/list pages them", len((listed.get("result") or {}).get("tasks") or []) > 0,
            listed)
    waiting = [c.send_request("tasks/result", {"taskId": created[0]}) for _ in range(12)]
    beyond = [c.answers.response(w) or {} for w in waiting[8:]]
    c.check("tasks/result beyond 8 waiting on one task: -32603 at once",
            all((g.get("error") or {}).get("code") == -32603 for g in beyond), beyond[:2])
    for task in created[:50]:
        got = c.request("tasks/cancel " + task, "tasks/cancel", {"taskId": task})
        if got is not None and (got.get("result") or {}).get("status") != "cancelled":
            c.check("tasks/cancel " + task + " gives the cancelled task", False, got)
    answered = [c.answers.response(w) or {} for w in waiting[:8]]
    c.check("the 8 waiting tasks/result get the cancelled error",
            all("was cancelled" in (g.get("error") or {}).get("message", "") for g in answered),
            answered[:2])
    c.request("tasks/cancel of a cancelled task: -32602", "tasks/cancel", {"taskId": created[0]},
              code=-32602)


def garbage(c):
    """What is not a JSON-RPC request, or not one this server serves, each answered as the
    profile and runtime say, and the session goes on."""
    for what, line in (("not JSON", b"hello, server"),
                       ("invalid UTF-8 in a string", b'{"jsonrpc":"2.0","id":501,"method":'
                        b'"tools/call","params":{"name":"echo","arguments":{"text":"\xff"}}}'),
                       ("an overlong UTF-8 '/'", b'{"jsonrpc":"2.0","id":502,"method":"ping",'
                        b'"params":{"x":"\xc0\xaf"}}'),
                       ("a lone surrogate escape", b'{"jsonrpc":"2.0","id":503,"method":"ping",'
                        b'"params":{"x":"\\ud800"}}'),
                       ("a raw NUL", b'{"jsonrpc":"2.0","id":504,"method":"ping\x00"}'),
                       ("a byte order mark", b'\xef\xbb\xbf{"jsonrpc":"2.0","id":505,'
                        b'"method":"ping"}'),
                       ("truncated JSON", b'{"jsonrpc":"2.0","id":506,"method":"pi'),
                       ("a trailing comma", b'{"jsonrpc":"2.0","id":507,"method":"ping",}'),
                       ("two messages on one line", b'{"jsonrpc":"2.0","id":508,"method":'
                        b'"ping"} {"jsonrpc":"2.0","id":509,"method":"ping"}'),
                       ("a response-looking line the server never asked for, not JSON",
                        b'{"jsonrpc":"2.0","id":1,"result":')):
        c.wire.write_frame(line)
        c.ping("after " + what + " (logged and dropped, nothing answered)")
    c.wire.write_raw(b"\n\n   \n\t\r\n")
    c.ping("after blank lines (skipped)")
    for body in ('[{"jsonrpc":"2.0","id":510,"method":"ping"}]', "[]", "42", '"text"', "null",
                 "true", "{}", '{"jsonrpc":"2.0"}'):
        c.expect_null_id("the line " + body, body, INVALID_REQUEST)
    c.expect("an object with an id and nothing else", '{"id":511}', "511", INVALID_REQUEST)
    c.expect("jsonrpc 1.0", '{"jsonrpc":"1.0","id":512,"method":"ping"}', "512",
             INVALID_REQUEST)
    c.expect("no jsonrpc member", '{"id":513,"method":"ping"}', "513", INVALID_REQUEST)
    c.expect("jsonrpc 2 (a number)", '{"jsonrpc":2,"id":514,"method":"ping"}', "514",
             INVALID_REQUEST)
    c.expect("method a number", '{"jsonrpc":"2.0","id":515,"method":5}', "515",
             INVALID_REQUEST)
    c.expect("params a string", '{"jsonrpc":"2.0","id":516,"method":"ping","params":"x"}', "516",
             INVALID_REQUEST)
    c.expect("a request with a result member too (a request: served)",
             '{"jsonrpc":"2.0","id":517,"method":"ping","result":1}', "517")
    c.expect("method twice", '{"jsonrpc":"2.0","id":518,"method":"ping","method":"x"}', "518",
             INVALID_REQUEST)
    c.expect_null_id("id twice", '{"jsonrpc":"2.0","id":519,"id":520,"method":"ping"}',
                     INVALID_REQUEST)
    c.expect("an unknown method", '{"jsonrpc":"2.0","id":"m","method":"no/such"}', '"m"',
             METHOD_NOT_FOUND)
    c.expect("a client-side method sent to the server (roots/list)",
             '{"jsonrpc":"2.0","id":521,"method":"roots/list"}', "521", METHOD_NOT_FOUND)
    c.expect("a request on a CRLF line", '{"jsonrpc":"2.0","id":522,"method":"ping"}\r', "522")
    # A capability the server did not declare (tasks: this case runs it with --no-tasks):
    # refused before any handler, -32601 (the profile's gate_on_receipt), and said on its
    # stderr.
    c.expect("tasks/list to a server that did not declare tasks",
             '{"jsonrpc":"2.0","id":523,"method":"tasks/list"}', "523", METHOD_NOT_FOUND)
    # 999 more: every one refused, and the log falls off as the endpoint's own reports do.
    count = 999
    first = c.server.next_id + 1
    c.server.next_id += count
    c.answers.sent_requests(str(first + i) for i in range(count))
    c.wire.write_raw("".join(request_text(first + i, "tasks/list") + "\n"
                             for i in range(count)).encode())
    deadline = time.monotonic() + WAIT_S  # one outer bound for all of them
    wrong = []
    for i in range(count):
        got = c.answers.response(str(first + i), max(0.0, deadline - time.monotonic()))
        if got is None or (got.get("error") or {}).get("code") != METHOD_NOT_FOUND:
            wrong.append(got)
    c.check("each of %d more tasks/list answered -32601" % count, not wrong, wrong[:3])
    # Responses nobody asked for: logged and dropped, never answered (stray_response "log").
    for body in ('{"jsonrpc":"2.0","id":987654,"result":{}}',
                 '{"jsonrpc":"2.0","id":"nobody","error":{"code":1,"message":"m"}}',
                 '{"jsonrpc":"2.0","id":987655,"result":1,"error":{"code":1,"message":"m"}}',
                 '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}',
                 '{"jsonrpc":"2.0","id":987656,"result":%s}' % deep(DEEP)):
        c.wire.write_frame(body)
    c.ping("after garbage")
    c.check("lines that are not JSON are logged on stderr",
            "not JSON" in c.server.stderr_text(), c.server.stderr_text()[-300:])
    refused = [line for line in c.server.stderr_text().splitlines()
               if "refused: tasks/list: tasks" in line]
    c.check("the 1,000 requests for an undeclared capability are logged on stderr at a "
            "falling rate: the first ten, the 100th and the 1000th", len(refused) == 12,
            {"lines": len(refused), "last": refused[-2:]})


def bad_params(c):
    """Requests with params of the wrong shape: -32602 (never a crash, never -32603); a tool's
    own failure is a result with isError (MCP tools, "Error Handling")."""
    for what, method, params, code in (
            ("tools/call without params", "tools/call", None, INVALID_PARAMS),
            ("tools/call name a number", "tools/call", {"name": 5}, INVALID_PARAMS),
            ("tools/call arguments an array", "tools/call", {"name": "echo", "arguments": []},
             INVALID_PARAMS),
            ("tools/call of a tool that does not exist", "tools/call", {"name": "rm -rf"},
             INVALID_PARAMS),
            ("initialize without params", "initialize", None, INVALID_PARAMS),
            ("prompts/get with a number for a string argument", "prompts/get",
             {"name": "greet", "arguments": {"name": 5}}, INVALID_PARAMS),
            ("prompts/get of an unknown prompt", "prompts/get", {"name": "nope"},
             INVALID_PARAMS),
            ("resources/read of an unknown uri", "resources/read", {"uri": "file:///etc/passwd"},
             RESOURCE_NOT_FOUND),
            ("ping with params an array", "ping", [], INVALID_PARAMS)):
        got = c.request(what, method, params, code)
        if got is not None and code is not None:
            c.check(what + ": the error has a message", isinstance(
                got["error"].get("message"), str) and got["error"]["message"], got)
    for what, args in (("echo with a number for text", {"text": 5}),
                       ("echo without arguments", None),
                       ("add with strings", {"a": "1", "b": "2"}),
                       ("count to 0", {"to": 0}), ("count to 1.5", {"to": 1.5}),
                       ("count to 10^12", {"to": 10 ** 12})):
        params = {"name": what.split()[0]}
        if args is not None:
            params["arguments"] = args
        got = c.request(what + ": a tool error", "tools/call", params)
        if got is not None:
            c.check(what + ": isError", (got.get("result") or {}).get("isError") is True, got)
    c.request("ping without params", "ping", None)
    c.expect("ping with params null", '{"jsonrpc":"2.0","id":530,"method":"ping","params":null}',
             "530")
    c.request("tools/list", "tools/list", {})
    c.ping("after bad params")


def ids(c):
    """Ids: strings (empty, unicode, numeric-looking) and integers (negative, 2^53+1, 2^63,
    2^64-1) are answered with exactly that id, kind kept ("1" is not 1); a fraction, an
    exponent, 2^64, null, a boolean, an object are ids that cannot be read: -32600 with a null
    id (as unknown_id says). Two in-flight requests with the same id each get their own answer."""
    for rid in ("", "x", "\u00e9\U0001F600", "1", "-0", " 7 ", -1, -(2 ** 63),
                2 ** 53 + 1, 2 ** 63, 2 ** 64 - 1, 0):
        c.echo("echo with id %s" % json.dumps(rid), "id %s" % json.dumps(rid), rid=rid)
    # Both kinds in flight together: the answers keep the kinds apart.
    a = c.send_request("ping", {}, rid=77)
    b = c.send_request("ping", {}, rid="77")
    c.check("id 77 and id \"77\" each answered", c.answers.response(a) is not None and
            c.answers.response(b) is not None)
    for text in ("1.5", "1e3", "1.0", "18446744073709551616", "-9223372036854775809", "null",
                 "true", "[1]", '{"a":1}'):
        c.expect_null_id("id " + text, '{"jsonrpc":"2.0","id":%s,"method":"ping"}' % text,
                         INVALID_REQUEST)
    c.expect("id -0 (an integer: 0)", '{"jsonrpc":"2.0","id":-0,"method":"ping"}', "0")
    # A duplicate id in flight: MCP says it MUST NOT happen; the server answers each request.
    # ping_client "dup" waits on this client's answer while echo "dup" is served.
    c.server.answer_pings = False
    first = c.send_request("tools/call", {"name": "ping_client", "arguments": {}}, rid="dup")
    sent = c.server.wait_sent(lambda m, i, p: m == "ping" and i is not None)
    if not c.check("the server pings the client", sent is not None):
        return
    c.send_request("tools/call", {"name": "echo", "arguments": {"text": "second dup"}},
                   rid="dup")
    answers = [c.answers.response(first)]
    c.wire.write_frame(json.dumps({"jsonrpc": "2.0", "id": sent[1], "result": {}}))
    answers.append(c.answers.response(first))
    c.server.answer_pings = True
    texts = [(((x or {}).get("result") or {}).get("content") or [{}])[0].get("text")
             for x in answers]
    c.check("both requests with id \"dup\" answered, each with its own result, echo first",
            texts == ["second dup", "pong"], answers)
    c.ping("after ids")


def lifecycle(c):
    """Before the handshake: ping (allowed by MCP), notifications/initialized, cancelled of an
    unknown id; a tools/call (MCP: the client SHOULD NOT; a rule on the sender, so the server
    serves it: schema/mcp/README.md item 4). Then initialize with a version the server does not speak
    (it answers its own, lifecycle "Version Negotiation"), initialize again (answered again),
    and the server goes on."""
    got = c.request("ping before initialize", "ping", {})
    c.check("ping before initialize is {}", got is not None and got.get("result") == {}, got)
    c.notify("notifications/initialized")
    c.notify("notifications/cancelled", {"requestId": 1, "reason": "never sent"})
    c.echo("tools/call echo before initialize (served: phase rules bind the sender)", "early")
    got = c.request("initialize for version 1999-01-01", "initialize", {
        "protocolVersion": "1999-01-01", "capabilities": {},
        "clientInfo": {"name": "old", "version": "0"}})
    if got is not None:
        c.check("initialize for an unknown version answers the server's own version",
                (got.get("result") or {}).get("protocolVersion") == PROTOCOL_VERSION, got)
    c.handshake()
    got = c.request("a third initialize", "initialize", {
        "protocolVersion": PROTOCOL_VERSION, "capabilities": {},
        "clientInfo": {"name": "again", "version": "1"}})
    c.check("initialize again is answered (a result)", got is not None and "result" in got, got)
    c.notify("notifications/initialized")
    c.notify("notifications/cancelled", {"requestId": 1})  # MUST NOT cancel initialize: ignored
    c.ping("after the hostile lifecycle")


def unanswered_server_ping(c):
    """ping_client makes the server ping this client, which never answers. Meanwhile ping and
    echo are answered at once (before the tool call ends); the tool call ends with a tool
    error (isError) after its 10 s deadline; a late answer to the server's ping is dropped."""
    c.server.answer_pings = False
    start = time.monotonic()
    call = c.send_request("tools/call", {"name": "ping_client", "arguments": {}})
    sent = c.server.wait_sent(lambda m, i, p: m == "ping" and i is not None)
    if not c.check("the server pings the client", sent is not None):
        return
    c.check("the server's ping id is an integer (profile ids.send)",
            isinstance(sent[1], int) and not isinstance(sent[1], bool), sent[1])
    for n in range(3):
        c.ping("while ping_client waits (%d)" % n)
        c.echo("echo while ping_client waits (%d)" % n, "meanwhile %d" % n)
        c.notify("notifications/roots/list_changed")
    meanwhile = time.monotonic() - start
    c.check("ping and echo answered while ping_client waits, before its answer (%.1f s)"
            % meanwhile, not c.server.arrived(call), {"meanwhile s": meanwhile})
    got = c.answers.response(call, PING_CLIENT_DEADLINE + WAIT_S)
    elapsed = time.monotonic() - start
    if not c.check("ping_client answered after its deadline", got is not None):
        return
    c.check("ping_client's answer is a tool error", (got.get("result") or {}).get("isError")
            is True, got)
    c.check("ping_client waited its deadline (%.1f s)" % elapsed,
            elapsed >= PING_CLIENT_DEADLINE - 0.5, elapsed)
    c.wire.write_frame(json.dumps({"jsonrpc": "2.0", "id": sent[1], "result": {}}))
    c.ping("after a late answer to the server's ping")
    c.server.answer_pings = True


def unanswered_sampling(c):
    """summarize makes the server ask this client's model for a summary (sampling/createMessage,
    the client having declared sampling), which never answers. Meanwhile ping and echo are
    answered; the tool call ends with a tool error after its 10 s deadline, and the server
    cancels its request (notifications/cancelled with that request's id: the profile's
    cancel on_timeout); a late answer is dropped."""
    c.server.answer_pings = False  # no request of the server's is answered
    start = time.monotonic()
    call = c.send_request("tools/call", {"name": "summarize", "arguments": {"text": "t" * 1000}})
    sent = c.server.wait_sent(lambda m, i, p: m == "sampling/createMessage" and i is not None)
    if not c.check("the server asks for a sampling", sent is not None):
        return
    c.check("the sampling request carries the text and maxTokens",
            isinstance(sent[2], dict) and sent[2].get("maxTokens") == 100 and
            sent[2]["messages"][0]["content"]["text"] == "Summarize: " + "t" * 1000, sent[2])
    for n in range(3):
        c.ping("while summarize waits (%d)" % n)
        c.echo("echo while summarize waits (%d)" % n, "meanwhile %d" % n)
    c.check("ping and echo answered while summarize waits", not c.server.arrived(call))
    got = c.answers.response(call, PING_CLIENT_DEADLINE + WAIT_S)
    elapsed = time.monotonic() - start
    if not c.check("summarize answered after its deadline", got is not None):
        return
    c.check("summarize's answer is a tool error", (got.get("result") or {}).get("isError") is True,
            got)
    c.check("summarize waited its deadline (%.1f s)" % elapsed,
            elapsed >= PING_CLIENT_DEADLINE - 0.5, elapsed)
    cancel = c.server.wait_sent(lambda m, i, p: m == "notifications/cancelled" and isinstance(
        p, dict) and p.get("requestId") == sent[1])
    c.check("the server cancels the sampling request it gave up on", cancel is not None and
            "sampling/createMessage" in str(cancel[2].get("reason", "")), cancel)
    c.wire.write_frame(json.dumps({"jsonrpc": "2.0", "id": sent[1], "result": {
        "role": "assistant", "content": {"type": "text", "text": "late"}, "model": "m"}}))
    c.ping("after a late answer to the sampling request")
    c.server.answer_pings = True


def server_ping_wrong_id(c):
    """The server's ping answered with the string form of its integer id: the profile matches
    ids exactly, so it answers nothing and ping_client still times out with a tool error. Then
    a ping_client answered properly says pong."""
    c.server.answer_pings = False
    call = c.send_request("tools/call", {"name": "ping_client", "arguments": {}})
    sent = c.server.wait_sent(lambda m, i, p: m == "ping" and i is not None)
    if not c.check("the server pings the client", sent is not None):
        return
    c.wire.write_frame(json.dumps({"jsonrpc": "2.0", "id": str(sent[1]), "result": {}}))
    got = c.answers.response(call, PING_CLIENT_DEADLINE + WAIT_S)
    c.check("an answer with the id's string form does not match: ping_client fails",
            got is not None and (got.get("result") or {}).get("isError") is True, got)
    c.server.answer_pings = True
    got = c.request("ping_client answered", "tools/call", {"name": "ping_client",
                                                           "arguments": {}})
    c.check("ping_client answered properly says pong", got is not None and
            (got.get("result") or {}).get("content", [{}])[0].get("text") == "pong", got)
    c.ping("after ping_client")


def cancellation(c):
    """notifications/cancelled (the profile's cancel): a long count cancelled after two
    progress steps stops at the step it is on (it logs where) and is never answered; a request
    queued behind it and cancelled is never run nor answered; cancels of what is not in flight
    (never sent, answered already, the other id kind, malformed, a 1 MiB reason, twice) are
    ignored; 20,000 cancels of other ids leave a running count alone; initialize cannot be
    cancelled."""
    def quiet_request(method, params):
        """A request whose answer this client must never get: not announced, so an answer
        would be a stray (check_answers); returns its id (JSON text)."""
        rid = c.server.fresh_id()
        c.wire.write_frame(request_text(rid, method, params))
        return rid

    def cancelled_log(rid_reason):
        return c.server.wait_sent(lambda m, i, p: m == "notifications/message" and isinstance(
            p, dict) and str(p.get("data", "")).startswith("count cancelled") and str(
                p.get("data", "")).endswith(rid_reason))

    def progress_of(token, n):
        return c.server.wait_sent(lambda m, i, p: m == "notifications/progress" and isinstance(
            p, dict) and p.get("progressToken") == token and p.get("progress") == n)

    c.request("logging/setLevel info", "logging/setLevel", {"level": "info"})
    long_count = {"name": "count", "arguments": {"to": 100, "delay_ms": 50},
                  "_meta": {"progressToken": "long"}}
    running = quiet_request("tools/call", long_count)
    if not c.check("the long count reports progress", progress_of("long", 2) is not None):
        return
    queued = quiet_request("tools/call", {"name": "echo", "arguments": {"text": "queued"}})
    c.notify("notifications/cancelled", {"requestId": queued, "reason": "not wanted"})
    c.notify("notifications/cancelled", {"requestId": running, "reason": "stop counting"})
    logged = cancelled_log("stop counting")
    c.check("the long count stops and logs where", logged is not None, logged)
    c.ping("after the cancels")
    c.check("no answer to the cancelled count", not c.server.arrived(json.dumps(running)))
    c.check("no answer to the cancelled queued echo", not c.server.arrived(json.dumps(queued)))
    steps = [m for m in c.server.sent_so_far() if m[0] == "notifications/progress" and
             isinstance(m[2], dict) and m[2].get("progressToken") == "long"]
    c.check("the count stopped well before 100 steps (%d)" % len(steps), len(steps) < 100,
            len(steps))

    answered = c.server.fresh_id()
    c.request("a request answered", "ping", {}, rid=answered)
    for params in ({"requestId": 424242}, {"requestId": answered}, {"requestId": str(answered)},
                   {"requestId": None}, {"requestId": [answered]}, {"requestId": {"id": 1}},
                   {"requestId": 1.5}, {}, {"reason": "no id"},
                   {"requestId": 7, "reason": "r" * MIB}, {"requestId": 7, "reason": 7}):
        c.notify("notifications/cancelled", params)
    c.notify("notifications/cancelled")
    c.wire.write_frame('{"jsonrpc":"2.0","method":"notifications/cancelled","params":[1]}')
    c.ping("after cancels of nothing")

    kept = c.send_request("tools/call", {"name": "count", "arguments": {"to": 10, "delay_ms": 20}})
    others = json.loads(kept) + 1
    c.wire.write_raw(b"".join(
        b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":%d}}\n'
        % (others + i) for i in range(20000)))
    got = wait_answer(c, kept, "a count beside 20,000 cancels of other ids")
    c.check("a count beside 20,000 cancels of other ids runs to its end",
            got is not None and (got.get("result") or {}).get("content", [{}])[0].get("text")
            == "10", got)

    init = c.send_request("initialize", {
        "protocolVersion": PROTOCOL_VERSION, "capabilities": {},
        "clientInfo": {"name": "hostile-mcp-client", "version": "0.0.1"}})
    c.notify("notifications/cancelled", {"requestId": json.loads(init)})
    got = wait_answer(c, init, "initialize, cancelled")
    c.check("initialize is answered though cancelled (MUST NOT be cancelled)",
            got is not None and "result" in got, got)


def eof_mid_line(c):
    """stdin closed after 8 MiB of a line without its newline: the stream ended inside a line,
    a broken stream by PluginSession::run (exit 1), left at once, nothing answered."""
    c.healthy("before the end of stdin")
    c.wire.write_raw(echo_text(c.server.fresh_id(), "t" * (8 * MIB))[:-3].encode())
    c.server.close_stdin()
    code = c.server.wait_exit()
    c.check("exit after stdin closed inside an 8 MiB line (expected 1: broken stream)",
            code == 1, code)


def eof_mid_oversize(c):
    """stdin closed inside a line over the cap (20 MiB so far, being discarded): the end of
    stdin, exit 0, at once."""
    c.healthy("before the end of stdin")
    c.wire.write_raw(echo_text(c.server.fresh_id(), "t" * (20 * MIB))[:-3].encode())
    c.server.close_stdin()
    code = c.server.wait_exit()
    c.check("exit after stdin closed inside a 20 MiB line (expected 0)", code == 0, code)


def eof_in_flight(c):
    """2,000 requests written and stdin closed at once: every one is answered before the
    server exits 0."""
    c.healthy("before the end of stdin")
    count = 2000
    first = c.server.next_id + 1
    c.server.next_id += count
    c.answers.sent_requests(str(first + i) for i in range(count))
    c.wire.write_raw("".join((echo_text(first + i, "f%d" % i) if i % 2 else
                              request_text(first + i, "ping", {})) + "\n"
                             for i in range(count)).encode())
    c.server.close_stdin()
    code = c.server.wait_exit()
    c.check("exit 0 after stdin closed with requests in flight", code == 0, code)
    c.server.reader.join(WAIT_S)
    missing = [first + i for i in range(count) if c.answers.response(str(first + i), 0) is None]
    c.check("every request written before the end of stdin answered", not missing,
            {"missing": len(missing), "first missing": missing[:5]})


def eof_while_waiting(c):
    """stdin closed while ping_client waits on this client: the server exits 0 without
    waiting out the call's deadline (bounded here by the deadline plus the usual margin)."""
    c.healthy("before the end of stdin")
    c.server.answer_pings = False
    c.send_request("tools/call", {"name": "ping_client", "arguments": {}})
    c.check("the server pings the client",
            c.server.wait_sent(lambda m, i, p: m == "ping" and i is not None) is not None)
    start = time.monotonic()
    c.server.close_stdin()
    code = c.server.wait_exit()
    log("eof-while-waiting: exit %s after %.1f s" % (code, time.monotonic() - start))
    c.check("exit 0 after stdin closed while a call waits on the client", code == 0, code)


CASES = {
    "deep-nesting": deep_nesting,
    "numbers": numbers,
    "oversize-line": oversize_line,
    "at-the-cap": at_the_cap,
    "huge-legal-line": huge_legal_line,
    "notification-flood": notification_flood,
    "request-flood": request_flood,
    "task-flood": task_flood,
    "garbage": garbage,
    "bad-params": bad_params,
    "ids": ids,
    "lifecycle": lifecycle,
    "cancellation": cancellation,
    "unanswered-server-ping": unanswered_server_ping,
    "unanswered-sampling": unanswered_sampling,
    "server-ping-wrong-id": server_ping_wrong_id,
    "eof-mid-line": eof_mid_line,
    "eof-mid-oversize": eof_mid_oversize,
    "eof-in-flight": eof_in_flight,
    "eof-while-waiting": eof_while_waiting,
}
ENDS_INPUT = {"eof-mid-line", "eof-mid-oversize", "eof-in-flight", "eof-while-waiting"}
# The sample server's options a case needs: garbage asks for a capability it did not declare.
SERVER_OPTIONS = {"garbage": ["--no-tasks"]}
BEFORE_HANDSHAKE = {"lifecycle"}


def main():
    if sys.argv[1:] == ["--list"]:
        print("\n".join(CASES))
        return 0
    if len(sys.argv) < 4 or sys.argv[2] != "--" or sys.argv[1] not in CASES:
        sys.stderr.write(__doc__)
        return 2
    case, command = sys.argv[1], sys.argv[3:] + SERVER_OPTIONS.get(sys.argv[1], [])
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="hostile-mcp-") as state_dir:
        server = Server(command, state_dir)
        c = Checks(server)
        try:
            if case in BEFORE_HANDSHAKE or c.handshake() is not None:
                CASES[case](c)
            if case not in ENDS_INPUT:
                took = c.healthy("still serving after " + case)
                log("%s: ping and echo answered in %.2f s after the case" % (case, took))
                peak = server.peak_memory()
                c.check("peak memory (VmHWM) within %d MiB" % (PEAK_MEMORY_LIMIT >> 20),
                        peak is None or peak <= PEAK_MEMORY_LIMIT,
                        "%d MiB" % ((peak or 0) >> 20))
                server.close_stdin()
                code = server.wait_exit()
                c.check("exit code after stdin closed (expected 0 within %d s)" % WAIT_S,
                        code == 0, code)
        except Exception as e:  # a bug here, or the server went away: a failure either way
            c.fail("exception", repr(e))
        if server.process.poll() is None:
            server.process.kill()
            server.process.wait()
        server.reader.join(WAIT_S)  # to the end of its output: every answer it ever gave
        c.check_answers("answers up to the end of " + case)
        c.no_null_id_answers("up to the end of " + case)
        c.check("nothing but JSON-RPC lines on stdout", not server.stdout_problems,
                server.stdout_problems[:3])
        stderr_tail = server.stderr_text()[-2000:]
    log("%s: %d checked, %d failed, %.1f s" % (case, c.checked, len(c.failures),
                                                time.monotonic() - started))
    if c.failures:
        log("server stderr (tail):\n" + stderr_tail)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
