#!/usr/bin/env python3
"""A hostile MCP server, written from the MCP spec (revision 2025-11-25, stdio transport) and
this project's MCP profile (schema/mcp/protocol.json x-profile), Python's standard library only.

    hostile_mcp_server.py <case> -- <mcp client command> [args...]

runs the client (the sample client, examples/mcp) with this script as its server, in the role
of <case>; the server side (`--serve <case> <verdict>`) answers the handshake and the client's
calls like a small server with one tool, and does what a stranger of a server could do. Then it
checks the client from outside: it ended within a bound (no hang), with the exit code the case
expects (1: it saw the server break the protocol), having said why on stderr, and having carried
on with its session where the case allows it (its closing account printed); and from inside:
what the server was answered (the server side writes its checks to <verdict>). Exit status 0
when every check passed; the failures on stderr otherwise. `--list` prints the cases.

What the profile and the runtime say, as checked here:
- NDJSON, at most max_line_bytes (16 MiB) a line: a longer line is discarded as it arrives, and
  the session goes on; a line that is not JSON is logged and dropped (not_json "log").
- JSON nested at most max_json_depth (256) levels: a deeper answer cannot be used.
- A client answers a request for a capability it did not declare -32601 (client/roots, and
  the profile's gate_on_receipt), before any handler of its own.
- Every request the client makes has a deadline; one unanswered is cancelled with
  notifications/cancelled (the profile's cancel on_timeout).
"""
import json
import os
import subprocess
import sys
import tempfile
import time

MIB = 1 << 20
MAX_LINE = 16 * MIB      # max_line_bytes
DEEP = 30000             # far past max_json_depth (256)
CLIENT_BOUND_S = 240     # the client ends within this, under sanitizers on a loaded machine
TIMEOUT_MS = 3000        # the client's deadline per request (--timeout-ms)
METHOD_NOT_FOUND = -32601
TOOL = {"name": "t", "description": "a tool", "inputSchema": {"type": "object"}}


# ---- the server side ----------------------------------------------------------------------

class Server:
    """The server as the client sees it: one tool "t", logging; `case` adds the hostility."""

    def __init__(self, case):
        self.case = case
        self.answers = {}     # what the client answered, by the id of our request
        self.cancelled = []   # requestIds of notifications/cancelled
        self.failures = []

    def write(self, text):
        sys.stdout.buffer.write(text if isinstance(text, bytes) else text.encode("utf-8"))
        sys.stdout.buffer.flush()

    def send(self, message):
        self.write(json.dumps(message) + "\n")

    def result(self, message, result):
        self.send({"jsonrpc": "2.0", "id": message["id"], "result": result})

    def serve(self):
        for line in sys.stdin.buffer:
            message = json.loads(line)
            method = message.get("method")
            if method is None:
                self.answers[json.dumps(message.get("id"))] = message
            elif method == "initialize":
                self.result(message, {
                    "protocolVersion": message["params"]["protocolVersion"],
                    "capabilities": {"tools": {}, "logging": {}},
                    "serverInfo": {"name": "hostile-mcp-server", "version": "0.0.1"}})
            elif method == "notifications/initialized":
                hook = getattr(self, "initialized_" + self.case, None)
                if hook:
                    hook()
            elif method == "notifications/cancelled":
                self.cancelled.append(message["params"].get("requestId"))
            elif method == "tools/list":
                hook = getattr(self, "tools_list_" + self.case, None)
                if hook:
                    hook(message)
                else:
                    self.result(message, {"tools": [TOOL]})
            elif method == "tools/call":
                hook = getattr(self, "tools_call_" + self.case, None)
                if hook:
                    hook(message)
                else:
                    self.result(message, {"content": [{"type": "text", "text": "ok"}]})
            elif method in ("logging/setLevel", "ping"):
                self.result(message, {})
            elif "id" in message:
                self.send({"jsonrpc": "2.0", "id": message["id"],
                           "error": {"code": METHOD_NOT_FOUND, "message": "no " + method}})
        check = getattr(self, "at_eof_" + self.case, None)
        if check:
            check()

    def check(self, what, ok, detail=None):
        if not ok:
            self.failures.append(what + ("" if detail is None else ": " + str(detail)[:300]))

    # -- the cases' hooks (each case documents itself in CASES below)

    def tools_list_notification_flood(self, message):
        note = '{"jsonrpc":"2.0","method":"notifications/message","params":' \
               '{"level":"info","data":"n"}}\n'
        self.write(note * 20000)
        self.result(message, {"tools": [TOOL]})

    def initialized_requests_not_declared(self):
        self.send({"jsonrpc": "2.0", "id": "roots", "method": "roots/list", "params": {}})
        self.send({"jsonrpc": "2.0", "id": "sampling", "method": "sampling/createMessage",
                   "params": {"messages": [{"role": "user",
                                            "content": {"type": "text", "text": "hi"}}],
                              "maxTokens": 10}})
        self.send({"jsonrpc": "2.0", "id": "elicitation", "method": "elicitation/create",
                   "params": {"message": "name?",
                              "requestedSchema": {"type": "object", "properties": {}}}})

    def at_eof_requests_not_declared(self):
        for rid in ("roots", "sampling", "elicitation"):
            got = self.answers.get(json.dumps(rid))
            self.check("%s answered -32601" % rid,
                       got is not None and got.get("error", {}).get("code") == METHOD_NOT_FOUND,
                       got)

    def tools_list_deep_result(self, message):
        schema = '{"a":' * DEEP + '{}' + '}' * DEEP
        self.write('{"jsonrpc":"2.0","id":%s,"result":{"tools":[{"name":"t","inputSchema":'
                   '{"type":"object","properties":%s}}]}}\n' % (json.dumps(message["id"]), schema))

    def tools_call_huge_content_block(self, message):
        text = "x" * (12 * MIB)  # under the 16 MiB line cap
        self.result(message, {"content": [{"type": "text", "text": text}]})

    def initialized_answers_to_nothing(self):
        self.send({"jsonrpc": "2.0", "id": 4242, "result": {}})
        self.send({"jsonrpc": "2.0", "id": "ghost", "error": {"code": -32603, "message": "x"}})

    def initialized_lines_not_json(self):
        self.write(b"hello\n{not json\n\xff\xfe\n")

    def initialized_line_over_cap(self):
        self.write(b'{"jsonrpc":"2.0","method":"notifications/message","params":{"level":'
                   b'"info","data":"' + b"x" * (MAX_LINE + MIB) + b'"}}\n')

    def tools_list_silent_on_tools_list(self, message):
        self.silent_id = message["id"]  # never answered

    def at_eof_silent_on_tools_list(self):
        self.check("the unanswered tools/list cancelled (notifications/cancelled)",
                   getattr(self, "silent_id", None) in self.cancelled,
                   {"cancelled": self.cancelled})


def serve(case, verdict_path):
    server = Server(case)
    try:
        server.serve()
    except Exception as e:  # noqa: BLE001 - any failure here is a finding, written down
        server.failures.append("the server side failed: %r" % e)
    with open(verdict_path, "w") as f:
        json.dump({"failures": server.failures}, f)


# ---- the driver ---------------------------------------------------------------------------

# case -> (what it does and what must follow, expected exit code, texts the client must print
# on stdout or stderr, whether the session must have gone on to its closing account)
CASES = {
    "notification_flood": (
        "20,000 log notifications before the tools/list answer: every one handled (bounded "
        "queue), those still queued when the server exits included, the session goes on, "
        "nothing broken", 0,
        ["from the server: notifications/message 20000", "the server kept to the protocol"],
        True),
    "requests_not_declared": (
        "roots/list, sampling/createMessage and elicitation/create to a client that declared "
        "none: each answered -32601 before any handler, reported as a violation", 1,
        ["violation: roots/list: roots is not granted",
         "violation: sampling/createMessage: sampling is not granted",
         "violation: elicitation/create: elicitation is not granted"], True),
    "deep_result": (
        "a tools/list answer nested 30,000 levels: not used, reported, the session goes on", 1,
        ["cannot be used: at byte", "nesting deeper than 256 levels"], True),
    "huge_content_block": (
        "a tools/call answer with a 12 MiB text block (under the line cap): taken, nothing "
        "broken", 0, ["the server kept to the protocol"], True),
    "answers_to_nothing": (
        "answers to ids the client never sent (an integer and a string): reported, the "
        "session goes on", 1,
        ["violation: response with id 4242 matches no pending call",
         'violation: response with id "ghost" matches no pending call'], True),
    "lines_not_json": (
        "lines that are not JSON (text, a broken object, invalid UTF-8): logged and dropped, "
        "reported, the session goes on", 1,
        ["violation: frame is not JSON, dropped: at byte 0: expected a value, found 'h'",
         "violation: frame is not JSON, dropped: at byte 0: expected a value, found byte 0xFF"],
        True),
    "line_over_cap": (
        "a 17 MiB line (over the 16 MiB cap): discarded, reported, the session goes on", 1,
        ["violation: line exceeds the 16777216-byte limit"], True),
    "silent_on_tools_list": (
        "tools/list never answered: the client gives up at its deadline and cancels it (slow "
        "is not a breach of the protocol)", 0,
        ['no response to "tools/list" within %d ms' % TIMEOUT_MS], True),
}


def drive(case, client):
    _, code_expected, texts, goes_on = CASES[case]
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        verdict = os.path.join(tmp, "verdict.json")
        command = client + ["--timeout-ms", str(TIMEOUT_MS), "--ping-interval-ms", "0", "--",
                            sys.executable, os.path.abspath(__file__), "--serve", case, verdict]
        start = time.monotonic()
        try:
            run = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True,
                                 timeout=CLIENT_BOUND_S)
        except subprocess.TimeoutExpired:
            print("FAIL %s: the client did not end within %d s" % (case, CLIENT_BOUND_S),
                  file=sys.stderr)
            return 1
        took = time.monotonic() - start
        out = run.stdout.decode("utf-8", "replace") + run.stderr.decode("utf-8", "replace")
        if run.returncode != code_expected:
            failures.append("exit %d, expected %d" % (run.returncode, code_expected))
        for text in texts:
            if text not in out:
                failures.append("the client did not say %r" % text)
        if goes_on and "from the server:" not in out:
            failures.append("the session did not reach its closing account")
        try:
            with open(verdict) as f:
                failures += ["server side: " + f for f in json.load(f)["failures"]]
        except (OSError, ValueError) as e:
            failures.append("no verdict from the server side: %r" % e)
    print("%s: exit %d after %.1f s" % (case, run.returncode, took), file=sys.stderr)
    for failure in failures:
        print("FAIL %s: %s" % (case, failure), file=sys.stderr)
    if failures:
        tail = out[-3000:]
        print("--- the client's last output:\n%s" % tail, file=sys.stderr)
    return 1 if failures else 0


def main():
    if sys.argv[1:] == ["--list"]:
        print("\n".join(CASES))
        return 0
    if len(sys.argv) == 4 and sys.argv[1] == "--serve":
        serve(sys.argv[2], sys.argv[3])
        return 0
    if len(sys.argv) < 4 or sys.argv[2] != "--" or sys.argv[1] not in CASES:
        print(__doc__, file=sys.stderr)
        return 2
    return drive(sys.argv[1], sys.argv[3:])


if __name__ == "__main__":
    sys.exit(main())
