#!/usr/bin/env python3
"""A desktop-plugins v1 host written from the spec alone (Python standard library, no rpckit),
shaped like the spec's own sample: a reader thread reads the plugin's stdout continuously,
routes responses to the calls waiting on them and answers the plugin's host requests
(host/ping, host/request_approval) while the host's own request is still pending. It drives
desktop-plugin through its whole session: plugin/health, the plugin-defined
sample/word_count (approved and declined), plugin/shutdown, exit 0.

usage: desktop_host.py <plugin executable> [args...]   (exit 0: every check passed)
"""
import json
import subprocess
import sys
import threading


class Host:
    def __init__(self, command):
        self.plugin = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.lock = threading.Lock()
        self.pending = {}  # str(id) -> [Event, response]
        self.counter = 0
        self.events = []
        self.approvals = []
        self.pings = 0
        self.ids_seen = []
        self.reader = threading.Thread(target=self.read, daemon=True)
        self.reader.start()

    def write(self, message):
        message["jsonrpc"] = "2.0"
        with self.lock:
            self.plugin.stdin.write((json.dumps(message) + "\n").encode())
            self.plugin.stdin.flush()

    def read(self):
        for raw in self.plugin.stdout:
            line = raw.decode().rstrip("\n").rstrip("\r")
            if not line.strip():
                continue
            try:
                message = json.loads(line)
            except ValueError:
                print("non-JSON line from the plugin, discarded: %r" % line)
                continue
            if "method" in message and "id" in message:
                self.serve(message)
            elif "method" in message:
                if message["method"] == "codex/event":
                    self.events.append(message["params"])
            elif "id" in message:
                with self.lock:
                    slot = self.pending.pop(str(message["id"]), None)
                if slot:
                    slot[1] = message
                    slot[0].set()
        with self.lock:  # the plugin is gone: every pending call fails
            for slot in self.pending.values():
                slot[1] = {"error": {"code": -32000, "message": "plugin exited"}}
                slot[0].set()
            self.pending.clear()

    def serve(self, request):
        self.ids_seen.append(request["id"])
        method, params = request["method"], request.get("params")
        if method == "host/ping":
            self.pings += 1
            self.write({"id": request["id"], "result": {"pong": True}})
        elif method == "host/request_approval":
            if not isinstance(params, dict) or not isinstance(params.get("permission"), str):
                self.write({"id": request["id"], "error": {"code": -32602, "message": "permission"}})
                return
            self.approvals.append(params["permission"])
            approved = params["permission"] == "workspace.read"
            self.write({"id": request["id"], "result": {"approved": approved}})
        else:
            self.write({"id": request["id"], "error": {"code": -32601, "message": "Method not found"}})

    def call(self, method, params, timeout=60):
        with self.lock:
            self.counter += 1
            request_id = "h-%d" % self.counter
            slot = [threading.Event(), None]
            self.pending[request_id] = slot
        self.write({"id": request_id, "method": method, "params": params})
        if not slot[0].wait(timeout):
            raise SystemExit("FAIL no answer to %s within %d s" % (method, timeout))
        if slot[1].get("id") not in (request_id, None):
            raise SystemExit("FAIL answer with another id: %r" % slot[1])
        return slot[1]


def expect(condition, what):
    if not condition:
        raise SystemExit("FAIL " + what)
    print("ok   " + what)


def main():
    host = Host(sys.argv[1:])
    health = host.call("plugin/health", {})
    result = health.get("result", {})
    expect(result.get("ok") is True or result.get("status") == "ok", "plugin/health is healthy: %r" % health)
    expect(isinstance(result.get("plugin_id"), str) and isinstance(result.get("version"), str),
           "the health result carries plugin_id and version (form A)")

    counted = host.call("sample/word_count", {"text": "one two three\nfour"})
    expect(counted.get("result", {}).get("status") == "finished" and counted["result"]["words"] == 4
           and counted["result"]["lines"] == 2, "sample/word_count answered after approval: %r" % counted)
    expect(host.pings >= 1, "the plugin sent host/ping while our request was pending")
    expect(host.approvals == ["workspace.read"], "the plugin asked host/request_approval meanwhile")
    expect(all(isinstance(i, str) for i in host.ids_seen), "the plugin's request ids are strings")
    expect(len(set(map(str, host.ids_seen))) == len(host.ids_seen), "and unique")

    denied = host.call("sample/word_count", {"text": "x", "permission": "camera"})
    expect(denied.get("result") == {"status": "denied", "permission": "camera"},
           "a declined permission is reported, not an error: %r" % denied)
    expect(any(e.get("method") == "item/completed" and e.get("kind") == "notification"
               and isinstance(e.get("params"), dict) for e in host.events),
           "codex/event notifications {kind, method, params} arrived")

    bad = host.call("sample/word_count", {"text": ["not", "text"]})
    expect(bad.get("error", {}).get("code") == -32602, "wrong params are -32602: %r" % bad)
    again = host.call("plugin/health", None)
    expect("result" in again, "plugin/health with null params is answered")

    shutdown = host.call("plugin/shutdown", {})
    expect(shutdown.get("result") is not None and "error" not in shutdown,
           "plugin/shutdown acknowledged: %r" % shutdown)
    status = host.plugin.wait(timeout=60)
    expect(status == 0, "the plugin exits 0 after plugin/shutdown")
    host.reader.join(timeout=60)
    return 0


if __name__ == "__main__":
    sys.exit(main())
