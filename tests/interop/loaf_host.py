#!/usr/bin/env python3
"""A loaf RPC v1 client written from the spec alone (Python standard library only).

usage: loaf_host.py <server command> [args...]
Spawns the server, handshakes, runs a session through every method, collects the streamed
`event` notifications, shuts the server down (system.shutdown, close stdin) and checks it
exits 0. Exit 0 when everything went as the spec says.
"""
import json
import queue
import subprocess
import sys
import threading
import time

TIMEOUT = 30


class Host:
    def __init__(self, argv):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)
        self.next_id = 1
        self.responses = {}
        self.events = []
        self.cond = threading.Condition()
        threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        for line in self.proc.stdout:
            try:
                msg = json.loads(line)
            except ValueError:
                continue  # decision 8.8: log and skip
            with self.cond:
                if msg.get("method") == "event":
                    self.events.append(msg["params"])
                elif "id" in msg:
                    self.responses[msg["id"]] = msg
                self.cond.notify_all()

    def request(self, method, params=None, expect_error=None):
        rid = self.next_id
        self.next_id += 1
        msg = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params is not None:
            msg["params"] = params
        self.proc.stdin.write(json.dumps(msg) + "\n")
        self.proc.stdin.flush()
        with self.cond:
            if not self.cond.wait_for(lambda: rid in self.responses, TIMEOUT):
                raise SystemExit("no answer to " + method)
            reply = self.responses.pop(rid)
        if expect_error is not None:
            assert reply.get("error", {}).get("code") == expect_error, (method, reply)
            return reply["error"]
        assert "result" in reply, (method, reply)
        return reply["result"]

    def wait_event(self, pred, what):
        with self.cond:
            if not self.cond.wait_for(lambda: any(pred(e) for e in self.events), TIMEOUT):
                raise SystemExit("no event: " + what)

    def turn_end(self, turn_id):
        self.wait_event(lambda e: e["type"] == "session.status"
                        and e["payload"].get("turn_id") == turn_id
                        and not e["payload"]["pending"]
                        and e["payload"]["status_label"] == "ready", "ready " + turn_id)


def main():
    h = Host(sys.argv[1:])
    hs = h.request("rpc.handshake", {"client_name": "loaf_host.py", "client_version": "1",
                                     "protocol_version": "1.0.0"})
    assert hs["protocol_version"] == "1.0.0" and hs["server_name"] == "loaf"
    assert hs["methods"] == sorted(hs["methods"]) and "session.send" in hs["methods"]
    assert h.request("system.ping")["ok"] is True
    h.request("state.get")
    h.request("auth.status")
    h.request("onboarding.status")
    assert h.request("onboarding.complete") == {"completed": True}
    h.request("auth.set.openrouter_key", {"api_key": "k"})
    assert h.request("auth.set.exa_key", {"api_key": "skip"})["skipped"] is True
    assert h.request("auth.connect.openai", {})["provider"] == "openai"
    assert h.request("auth.connect.antigravity")["provider"] == "antigravity"
    h.request("model.list", {})
    h.request("model.list", {"provider": "mars"}, expect_error=-32602)
    h.request("model.openrouter.providers", {"model_id": "anthropic/claude-sonnet-4"})
    h.request("limits.get")
    sid = h.request("session.create", {})["session_id"]
    assert h.request("session.get", {"session_id": sid})["id"] == sid
    h.request("session.get", {"session_id": "nope"}, expect_error=-32603)
    h.request("debug.set", {"super_debug": True})
    first = h.request("session.send", {"session_id": sid, "text": "hello, use a tool"})
    h.turn_end(first["turn_id"])
    slow = h.request("session.send", {"session_id": sid, "text": "slow please"})
    assert h.request("session.steer", {"session_id": sid, "text": "faster"})["accepted"]
    queued = h.request("session.send", {"session_id": sid, "text": "next", "enqueue": True})
    assert queued["queued"] is True
    assert len(h.request("session.queue.list", {"session_id": sid})["queue"]) == 1
    assert h.request("session.queue.clear", {"session_id": sid})["cleared_count"] == 1
    assert h.request("session.interrupt", {"session_id": sid})["interrupted"] is True
    h.turn_end(slow["turn_id"])
    sel = h.request("model.select", {"model_id": "anthropic/claude-sonnet-4",
                                     "provider": "openrouter", "thinking_level": "LOW",
                                     "session_id": sid, "compress_immediately": True})
    assert "compression" in sel
    assert h.request("command.execute", {"session_id": sid, "raw_command": "/help"})["handled"]
    h.request("history.list", {"limit": 1})
    h.request("history.get", {"last": True})
    h.request("history.clear_session", {"session_id": sid})
    h.request("skills.list")
    h.request("tools.list")
    done = h.request("system.shutdown", {"reason": "host done"})
    assert done == {"accepted": True, "reason": "host done"}, done
    h.wait_event(lambda e: e["type"] == "state.changed"
                 and e["payload"]["reason"] == "host done", "state.changed host done")
    h.proc.stdin.close()
    code = h.proc.wait(timeout=TIMEOUT)
    types = sorted({e["type"] for e in h.events})
    print("events:", ", ".join(types))
    for needed in ("session.status", "session.stream.chunk", "session.completed",
                   "session.interrupted", "state.changed", "auth.flow.completed"):
        assert needed in types, needed
    assert code == 0, code
    print("loaf_host.py: session complete")
    return 0


if __name__ == "__main__":
    sys.exit(main())
