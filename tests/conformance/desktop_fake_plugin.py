#!/usr/bin/env python3
"""A fake desktop-plugins v1 plugin (spec: desktop-plugins-v1.md) for testing HOSTS.

usage: desktop_fake_plugin.py <mode>      (the host spawns it; see README.md)

It implements plugin/health, plugin/shutdown and a plugin-defined method `fake/echo`, whose
result is its params. While serving fake/echo it calls host/ping and
host/request_approval {permission: "workspace.read"} and sends a codex/event notification
(sections 4, 5: the host must serve its methods while a request to the plugin is pending),
then answers. Everything it receives and observes goes to $FAKE_REPORT (see fakelib.py);
run["host_replies"] lists the host's responses to the fake's own requests.

Modes (one per host-side rule):
  well_behaved        follows the spec
  non_json_stdout     prints non-JSON lines on stdout between valid answers (section 3: the
                      host logs and discards them, does not answer them, does not kill)
  oversize_line       before answering fake/echo, writes a 17 MiB line (a padded response to
                      the same id), then the real answer (decision 9.8: the host discards the
                      long line and keeps serving)
  no_jsonrpc_member   sends every message without "jsonrpc" (decision 9.11: still processed)
  number_ids          its own host requests carry integer ids (section 1: accepted, echoed
                      with their type)
  error_without_code  answers fake/echo with an error object without `code` (section 3: the
                      host maps it to -32000, keeping message and data)
"""

import json
import os
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fakelib import Fake

MODES = ["well_behaved", "non_json_stdout", "oversize_line", "no_jsonrpc_member", "number_ids",
         "error_without_code"]
OVERSIZE = 17 * 1024 * 1024


class DesktopFake:
    def __init__(self, mode):
        self.f = Fake(mode, MODES)
        self.mode = mode
        self.next_id = 0
        self.cond = threading.Condition()
        self.replies = {}       # our request id (as JSON text) -> host response
        self.f.run["host_replies"] = []
        self.junk = 0

    def out(self, msg):
        if self.mode == "no_jsonrpc_member":
            msg = {k: v for k, v in msg.items() if k != "jsonrpc"}
        if self.mode == "non_json_stdout":
            self.junk += 1
            self.f.send_raw(b"fake: this line is not JSON (%d)\n" % self.junk, "non-JSON line")
        self.f.send(msg)

    def answer(self, req, result=None, error=None):
        msg = {"jsonrpc": "2.0", "id": req["id"]}
        if error is not None:
            msg["error"] = error
        else:
            msg["result"] = result
        self.out(msg)

    def call_host(self, method, params, timeout=30.0):
        with self.cond:
            self.next_id += 1
            rid = self.next_id if self.mode == "number_ids" else "p-%d" % self.next_id
        self.out({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        key = str(rid)
        with self.cond:
            self.cond.wait_for(lambda: key in self.replies, timeout)
            reply = self.replies.get(key)
        self.f.event("host_call_done", method=method, id=rid, reply=reply)
        return reply

    def serve_echo(self, req):
        self.call_host("host/ping", {})
        self.call_host("host/request_approval", {"permission": "workspace.read"})
        self.out({"jsonrpc": "2.0", "method": "codex/event",
                  "params": {"kind": "notification", "method": "item/completed",
                             "params": {"item": {"type": "agentMessage", "text": "fake"}}}})
        params = req.get("params")
        if self.mode == "error_without_code":
            self.answer(req, error={"message": "no code here", "data": {"k": 1}})
            return
        if self.mode == "oversize_line":
            head = ('{"jsonrpc":"2.0","id":%s,"result":{"oversize":true,"pad":"'
                    % json.dumps(req["id"])).encode()
            self.f.send_raw(head + b"x" * (OVERSIZE - len(head) - 4) + b'"}}\n', "17 MiB line")
            self.f.event("oversize_line_written", bytes=OVERSIZE)
        self.answer(req, result=params)

    def handle(self, msg):
        if msg is None:
            self.out({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "parse error"}})
            return
        if not isinstance(msg, dict):
            self.out({"jsonrpc": "2.0", "id": None,
                      "error": {"code": -32600, "message": "invalid request"}})
            return
        if "method" in msg and "id" in msg:
            method = msg["method"]
            if method == "plugin/health":
                self.answer(msg, {"ok": True, "plugin_id": "conformance.fake", "version": "0.1.0"})
            elif method == "plugin/shutdown":
                self.answer(msg, {"ok": True})
                self.f.event("shutdown_answered")
                self.f.exit(0)
            elif method == "fake/echo":
                threading.Thread(target=self.serve_echo, args=(msg,), daemon=True).start()
            else:
                self.answer(msg, error={"code": -32601, "message": "method not found: %s" % method})
        elif "method" in msg:
            pass  # notifications from the host are ignored (section 5)
        elif "id" in msg:
            with self.cond:
                self.replies[str(msg["id"])] = msg
                self.f.run["host_replies"].append(msg)
                self.cond.notify_all()
        else:
            self.out({"jsonrpc": "2.0", "id": None,
                      "error": {"code": -32600, "message": "invalid request"}})

    def main(self):
        if self.mode == "non_json_stdout":
            self.f.send_raw(b"fake: starting up (not JSON)\n", "non-JSON line")
        for msg in self.f.lines():
            self.handle(msg)
        self.f.event("stdin_eof")
        self.f.exit(0)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.stderr.write(__doc__)
        sys.exit(2)
    DesktopFake(sys.argv[1]).main()
