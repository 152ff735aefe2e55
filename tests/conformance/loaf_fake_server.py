#!/usr/bin/env python3
"""A fake loaf RPC 1.0.0 server (spec: loaf-rpc-v1.md) for testing CLIENTS.

usage: loaf_fake_server.py <mode> [rpc]      (the client spawns it; see README.md)

It implements rpc.handshake, system.ping, system.shutdown and state.get, emits an `event` of
a type the spec does not list after the handshake (section 5: clients accept unknown types)
and state.changed as section 2 says. Everything it receives and observes goes to
$FAKE_REPORT (see fakelib.py).

Modes (one per client-side rule):
  well_behaved     follows the spec: after system.shutdown it ignores input and exits 0 once
                   stdin closes; on SIGTERM/SIGINT it emits state.changed and exits 0
  non_json_stdout  prints non-JSON lines on stdout between valid answers (decision 8.8: the
                   client logs and skips them)
  needs_sigterm    ignores stdin EOF; exits 0 only on SIGTERM (decision 8.6: the client sends
                   SIGTERM 5 s after closing stdin)
  needs_sigkill    ignores stdin EOF and SIGTERM (decision 8.6: the client sends SIGKILL 5 s
                   after SIGTERM)
"""

import datetime
import os
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fakelib import Fake

MODES = ["well_behaved", "non_json_stdout", "needs_sigterm", "needs_sigkill"]
METHODS = sorted("""
rpc.handshake system.ping system.shutdown state.get session.create session.get session.send
session.steer session.interrupt session.queue.list session.queue.clear command.execute
auth.status auth.connect.openai auth.connect.antigravity auth.set.openrouter_key
auth.set.exa_key onboarding.status onboarding.complete model.list model.select
model.openrouter.providers limits.get history.list history.get history.clear_session
skills.list tools.list debug.set""".split())
IMPLEMENTED = {"rpc.handshake", "system.ping", "system.shutdown", "state.get"}


def now():
    t = datetime.datetime.now(datetime.timezone.utc)
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (t.microsecond // 1000)


SNAPSHOT = {
    "auth": {"enabledProviders": [], "hasOpenAiToken": False, "hasOpenRouterKey": False,
             "hasAntigravityToken": False, "antigravityProfile": None},
    "onboarding": {"completed": False},
    "model": {"selectedModel": "fake-model", "selectedThinking": "MEDIUM",
              "selectedOpenRouterProvider": "", "selectedProvider": None},
    "sessions": {"count": 0, "ids": []},
    "skills": {"count": 0, "directories": []},
}


class LoafFake:
    def __init__(self, mode):
        self.f = Fake(mode, MODES)
        self.mode = mode
        self.shut = False
        self.junk = 0
        for sig in (signal.SIGTERM, signal.SIGINT):
            self.f.on_signal(sig, self.on_signal)

    def out(self, msg):
        if self.mode == "non_json_stdout":
            self.junk += 1
            self.f.send_raw(b"fake loaf: not JSON (%d)\n" % self.junk, "non-JSON line")
        self.f.send(msg)

    def event(self, type_, payload):
        self.out({"jsonrpc": "2.0", "method": "event",
                  "params": {"type": type_, "timestamp": now(), "payload": payload}})

    def state_changed(self, reason):
        self.event("state.changed", {"reason": reason, "snapshot": SNAPSHOT})

    def on_signal(self, name):
        if self.mode == "needs_sigkill" and name == "SIGTERM":
            self.f.event("signal_ignored", name=name)
            return
        self.state_changed(name.lower())
        self.f.exit(0)

    def error(self, id_value, code, message, data):
        self.out({"jsonrpc": "2.0", "id": id_value,
                  "error": {"code": code, "message": message, "data": data}})

    def handle(self, msg):
        if self.shut:
            return  # section 2: after the shutdown response every further line is ignored
        if msg is None:
            self.error(None, -32700, "Parse error", {"reason": "parse_error"})
            return
        if isinstance(msg, list):
            self.error(None, -32600, "Invalid Request", {"reason": "batch_not_supported"})
            return
        if not isinstance(msg, dict) or msg.get("jsonrpc") != "2.0" or (
                "method" in msg and (not isinstance(msg["method"], str) or not msg["method"].strip())):
            self.error(None, -32600, "Invalid Request", {"reason": "invalid_request"})
            return
        if "method" not in msg:
            self.error(None, -32600, "Invalid Request", {"reason": "invalid_request"})
            return
        if "id" not in msg:
            return  # client notifications are ignored
        rid, method, params = msg["id"], msg["method"], msg.get("params")
        if method == "rpc.handshake":
            self.out({"jsonrpc": "2.0", "id": rid, "result": {
                "protocol_version": "1.0.0", "server_name": "loaf",
                "capabilities": {"events": True, "command_execute": True, "multi_session": True,
                                 "image_inputs": ["path", "data_url"]},
                "methods": METHODS}})
            self.event("conformance.unlisted_event", {"note": "clients accept unknown types"})
        elif method == "system.ping":
            self.out({"jsonrpc": "2.0", "id": rid, "result": {"ok": True, "time": now()}})
        elif method == "state.get":
            self.out({"jsonrpc": "2.0", "id": rid, "result": SNAPSHOT})
        elif method == "system.shutdown":
            reason = (params or {}).get("reason") if isinstance(params, dict) else None
            self.state_changed(reason or "shutdown")
            result = {"accepted": True}
            if reason:
                result["reason"] = reason
            self.shut = True
            self.out({"jsonrpc": "2.0", "id": rid, "result": result})
            self.f.flush()
            self.f.event("shutdown_answered")
        elif method in METHODS:
            self.error(rid, -32603, "not implemented by the fake", {"reason": "internal_error"})
        else:
            self.error(rid, -32601, "Method not found: %s" % method,
                       {"reason": "method_not_found", "method": method})

    def main(self):
        for msg in self.f.lines():
            self.handle(msg)
        self.f.event("stdin_eof")
        if self.mode in ("needs_sigterm", "needs_sigkill"):
            self.f.event("ignoring_stdin_eof")
            self.f.sleep_forever()
        self.f.exit(0)


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3) or (len(sys.argv) == 3 and sys.argv[2] != "rpc"):
        sys.stderr.write(__doc__)
        sys.exit(2)
    LoafFake(sys.argv[1]).main()
