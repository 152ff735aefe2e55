#!/usr/bin/env python3
"""A stranger's editor for the tasks protocol, written from its schema alone (Python stdlib,
no rpckit): it drives tasks-worker over NDJSON on real pipes and checks what a peer may
rely on. Integer ids from the editor (the worker accepts both kinds), string ids from the
worker, a null id refused with -32600, a call from the worker while it handles a request,
log.line only within the grant, exit on session/exit with status 0.

usage: tasks_stranger_editor.py <worker executable>   (exit 0: every check passed)
"""
import json
import subprocess
import sys


def main():
    worker = subprocess.Popen([sys.argv[1]], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE)

    def send(message):
        worker.stdin.write((json.dumps(message) + "\n").encode())
        worker.stdin.flush()

    def receive():
        line = worker.stdout.readline()
        if not line:
            raise SystemExit("FAIL worker closed stdout; stderr: " + worker.stderr.read().decode())
        if not line.endswith(b"\n") or b"Content-Length" in line:
            raise SystemExit("FAIL not an NDJSON line: %r" % line)
        return json.loads(line)

    def expect(condition, what):
        if not condition:
            raise SystemExit("FAIL " + what)
        print("ok   " + what)

    # The handshake, with an integer id and a grant without "log".
    send({"jsonrpc": "2.0", "id": 7, "method": "session/open",
          "params": {"protocol_version": 1, "editor": "stranger", "granted": {"powers": ["confirm"]}}})
    opened = receive()
    expect(opened.get("id") == 7 and opened["result"]["worker"] == "tasks-worker for stranger",
           "session/open answered with the integer id")
    send({"jsonrpc": "2.0", "method": "session/ready"})

    # A request whose id kind the protocol does not accept.
    send({"jsonrpc": "2.0", "id": None, "method": "health.check"})
    refused = receive()
    expect(refused.get("error", {}).get("code") == -32600, "a null id is -32600")

    send({"jsonrpc": "2.0", "id": "h1", "method": "health.check"})
    expect(receive() == {"jsonrpc": "2.0", "id": "h1", "result": {}}, "health.check answered {}")

    # log is not granted: doc.changed makes the worker log, which must not reach us.
    send({"jsonrpc": "2.0", "method": "doc.changed", "params": {"uri": "file:///a", "version": 1}})

    # text/transform with confirm: the worker asks us first, with a string id of its own.
    send({"jsonrpc": "2.0", "id": 8, "method": "text/transform",
          "params": {"text": "abc", "operation": "upper", "confirm": True}})
    question = receive()
    expect(question.get("method") == "editor/confirm" and isinstance(question.get("id"), str),
           "editor/confirm arrives with a string id (and no log.line before it)")
    expect(question["params"]["question"] == "apply upper?", "the question names the operation")
    send({"jsonrpc": "2.0", "id": question["id"], "result": {"yes": True}})
    answer = receive()
    expect(answer.get("id") == 8 and answer["result"] == {"text": "ABC", "confirmed": True},
           "text/transform answered after the confirmation")

    # Params that fail the schema: -32602 naming the member.
    send({"jsonrpc": "2.0", "id": 9, "method": "text/transform", "params": {"text": 5, "operation": "upper"}})
    invalid = receive()
    expect(invalid.get("error", {}).get("code") == -32602 and "text" in invalid["error"]["message"],
           "invalid params are -32602 naming params.text")

    send({"jsonrpc": "2.0", "id": 10, "method": "no/such.method"})
    expect(receive().get("error", {}).get("code") == -32601, "an unknown method is -32601")

    send({"jsonrpc": "2.0", "id": 11, "method": "session/shutdown"})
    expect(receive() == {"jsonrpc": "2.0", "id": 11, "result": None}, "session/shutdown answered null")
    send({"jsonrpc": "2.0", "method": "session/exit"})
    status = worker.wait(timeout=60)
    expect(status == 0, "the worker exits 0 after session/exit")
    expect(worker.stdout.read() == b"", "nothing after exit")
    return 0


if __name__ == "__main__":
    sys.exit(main())
