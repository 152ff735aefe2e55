#!/usr/bin/env python3
"""A desktop-plugins v1 plugin written from the spec alone (Python standard library, no
rpckit), the way the spec's own sample is built: a reader thread reads stdin continuously,
routes responses to the host calls waiting on them and queues requests for a worker, which
may call the host in the middle of serving a request. desktop-host drives it through its whole
session; it must exit 0.

It serves what the sample host's script calls: plugin/health (answered in form B,
{status: "ok"}, which hosts accept), plugin/shutdown (form B, then exit 0) and the
plugin-defined sample/word_count {text, permission?} -> {status: "finished", words, lines,
chars, longest_word} or {status: "denied", permission}. Its own request ids are integers
(hosts accept both kinds). --noise also writes a non-JSON line and a blank line on stdout,
which a host logs and discards without killing the plugin (spec section 3).

usage: desktop_plugin.py [--noise]
"""
import json
import queue
import sys
import threading

out_lock = threading.Lock()
pending = {}  # str(id) -> [threading.Event, response]
pending_lock = threading.Lock()
next_id = [0]
requests = queue.Queue()


def log(text):
    sys.stderr.write("desktop_plugin.py: %s\n" % text)
    sys.stderr.flush()


def write_line(text):
    with out_lock:  # one write of the whole line (spec section 8)
        sys.stdout.write(text + "\n")
        sys.stdout.flush()


def send(message):
    message["jsonrpc"] = "2.0"
    write_line(json.dumps(message))


def call_host(method, params):
    with pending_lock:
        next_id[0] += 1
        request_id = next_id[0]
        slot = [threading.Event(), None]
        pending[str(request_id)] = slot
    send({"id": request_id, "method": method, "params": params})
    if not slot[0].wait(60):
        raise RuntimeError("no answer to " + method)
    response = slot[1]
    if "error" in response:
        raise RuntimeError("%s failed: %s" % (method, response["error"]))
    return response.get("result")


class RpcError(Exception):
    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


def word_count(params):
    if not isinstance(params, dict) or not isinstance(params.get("text"), str):
        raise RpcError(-32602, "params.text: expected string")
    permission = params.get("permission", "workspace.read")
    if not isinstance(permission, str):
        raise RpcError(-32602, "params.permission: expected string")
    send({"method": "codex/event", "params": {"kind": "notification", "method": "turn/started",
                                              "params": {}}})
    pong = call_host("host/ping", {})
    if pong != {"pong": True}:
        raise RpcError(-32603, "host/ping answered %r" % (pong,))
    answer = call_host("host/request_approval", {"permission": permission})
    if not answer.get("approved"):
        send({"method": "codex/event", "params": {"kind": "notification", "method": "item/completed",
              "params": {"item": {"type": "agentMessage", "text": permission + " declined"}}}})
        return {"status": "denied", "permission": permission}
    text = params["text"]
    words = text.split()
    send({"method": "codex/event", "params": {"kind": "notification", "method": "item/completed",
          "params": {"item": {"type": "agentMessage", "text": "counted %d words" % len(words)}}}})
    return {"status": "finished", "words": len(words),
            "lines": len(text.split("\n")) if text else 0, "chars": len(text),
            "longest_word": max(words, key=len) if words else ""}


def worker():
    healthy = False
    while True:
        message = requests.get()
        if message is None:
            return
        method, request_id = message["method"], message.get("id")
        try:
            if method == "plugin/health":
                result = {"status": "ok"}
                healthy = True
            elif method == "plugin/shutdown":
                send({"id": request_id, "result": {"status": "ok"}})
                log("shutdown")
                sys.stdout.flush()
                import os
                os._exit(0)
            elif method == "sample/word_count" and healthy:
                result = word_count(message.get("params"))
            else:
                raise RpcError(-32601, "Method not found: " + method)
            if request_id is not None:
                send({"id": request_id, "result": result})
        except RpcError as e:
            if request_id is not None:
                send({"id": request_id, "error": {"code": e.code, "message": str(e)}})
        except Exception as e:  # the handler failed
            if request_id is not None:
                send({"id": request_id, "error": {"code": -32603, "message": str(e)}})


def main():
    if "--noise" in sys.argv:
        write_line("this is not JSON")
        write_line("   ")
    threading.Thread(target=worker, daemon=True).start()
    for raw in sys.stdin.buffer:
        line = raw.decode("utf-8").rstrip("\n").rstrip("\r")
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except ValueError:
            send({"id": None, "error": {"code": -32700, "message": "Parse error"}})
            continue
        if not isinstance(message, dict):
            send({"id": None, "error": {"code": -32600, "message": "Invalid Request"}})
        elif "method" in message:
            if "id" in message:
                requests.put(message)
            # notifications from the host: none in v1, ignored
        elif "id" in message:
            with pending_lock:
                slot = pending.pop(str(message["id"]), None)
            if slot:
                slot[1] = message
                slot[0].set()
    log("stdin closed")  # EOF: as plugin/shutdown
    return 0


if __name__ == "__main__":
    sys.exit(main())
