#!/usr/bin/env python3
"""An independent Codex metadata host (protocol 1.0), written from the spec with Python's
standard library only. It spawns a plugin and checks it, printing "ok"/"FAIL" per check;
exit 0 when every check held.

  codex_metadata_host.py session   -- <plugin command> [args...]   the whole session
  codex_metadata_host.py malformed -- <plugin command> [args...]   malformed input (spec 1, 3)
  codex_metadata_host.py errors    -- <plugin command> [args...]   provider errors by credential
"""
import json
import os
import queue
import subprocess
import sys
import threading

TIMEOUT = 60  # generous: the plugin may run under sanitizers on a loaded machine
failures = 0


def check(ok, what):
    global failures
    print(("ok   " if ok else "FAIL ") + what, flush=True)
    if not ok:
        failures += 1


class Plugin:
    def __init__(self, command, env=None):
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     env=env)
        self.lines = queue.Queue()
        self.next_id = 1  # spec 1: integers from 1, one more per request
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def write(self, text):
        self.proc.stdin.write(text.encode() + b"\n")
        self.proc.stdin.flush()

    def receive(self):
        line = self.lines.get(timeout=TIMEOUT)
        if line is None:
            return None
        check(line.endswith(b"\n") and len(line) <= 1048577, "reply is one LF-terminated line")
        return json.loads(line)

    def request(self, method, params=None, omit_params=False):
        rid = self.next_id
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": rid, "method": method}
        if not omit_params:
            message["params"] = params if params is not None else {}
        self.write(json.dumps(message))
        reply = self.receive()
        check(reply is not None and reply.get("jsonrpc") == "2.0" and reply.get("id") == rid,
              f"{method}: reply carries jsonrpc 2.0 and id {rid}")
        return reply or {}

    def wait(self):
        try:
            return self.proc.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return None


def initialize(plugin, params):
    reply = plugin.request("initialize", params)
    manifest = reply.get("result", {})
    for key in ("name", "displayName", "version", "protocolVersion", "capabilities"):
        check(key in manifest, f"manifest has {key}")
    check(manifest.get("protocolVersion") == "1.0", "protocolVersion is exactly 1.0")
    return manifest


def session(command):
    env = dict(os.environ, API_KEY="stranger-key")
    plugin = Plugin(command, env)
    manifest = initialize(plugin, {"config": {}})
    check(manifest.get("capabilities", {}).get("seriesMetadataProvider") is True,
          "a series metadata provider")
    check(plugin.request("ping", omit_params=True).get("result") == "pong", "ping -> pong")
    found = plugin.request("metadata/search", {"query": "harbor", "limit": 2}).get("result", {})
    results = found.get("results", [])
    check(1 <= len(results) <= 2, "metadata/search honours limit")
    for r in results:
        check(isinstance(r.get("externalId"), str) and isinstance(r.get("title"), str),
              "SearchResult has externalId and title")
        check(0 <= r.get("score", 0) <= 100, "score is 0-100")
    if results:
        best = results[0]
        params = {"externalId": best["externalId"]}
        series = plugin.request("metadata/get", params).get("result", {})
        check(series.get("externalId") == best["externalId"], "metadata/get returns that series")
        check(len(series.get("titles", [])) >= 1, "SeriesMetadata has at least one title")
        check(0 <= series.get("rating", 0) <= 10, "rating is 0-10")
    missing = plugin.request("metadata/get", {"externalId": "nope"})
    check(missing.get("error", {}).get("code") == -32002, "unknown externalId -> -32002 not_found")
    matched = plugin.request("metadata/match", {"title": "Iron Lanterns", "author": "Goro Ishida"})
    m = matched.get("result", {})
    check("match" in m and 0 <= m.get("confidence", -1) <= 100, "MatchResponse has match, confidence")
    nomatch = plugin.request("metadata/match", {"title": "zzzz qqqq"}).get("result", {})
    check("match" in nomatch and nomatch["match"] is None, "no confident match -> match null")
    check(plugin.request("shutdown", omit_params=True).get("result", 0) is None, "shutdown -> null")
    # stdin stays open: the plugin must exit on its own (spec 2).
    check(plugin.wait() == 0, "the plugin exits 0 after shutdown with stdin open")


def malformed(command):
    plugin = Plugin(command, dict(os.environ, API_KEY="stranger-key"))
    plugin.write("this is not json")
    r = plugin.receive()
    check(r.get("error", {}).get("code") == -32700 and r.get("id", 0) is None,
          "a line that is not JSON -> -32700 with id null")
    plugin.write(json.dumps({"id": 50, "method": "ping"}))
    r = plugin.receive()
    check(r.get("error", {}).get("code") == -32600 and r.get("id") == 50,
          "no jsonrpc member -> -32600 with the id")
    plugin.write("")  # empty lines are skipped
    plugin.write(json.dumps({"jsonrpc": "2.0", "id": "7", "method": "initialize", "params": None}))
    r = plugin.receive()
    check(r.get("id") == "7" and "result" in r, "initialize params null, string id copied")
    for params, what in ((None, "absent"), ({}, "{}")):
        message = {"jsonrpc": "2.0", "id": 60, "method": "ping"}
        if params is not None:
            message["params"] = params
        plugin.write(json.dumps(message))
        check(plugin.receive().get("result") == "pong", f"ping with params {what}")
    plugin.next_id = 100
    cases = [
        ("metadata/search", {}, -32602, "search without query"),
        ("metadata/search", {"query": ""}, -32602, "empty query"),
        ("metadata/search", {"query": "x", "limit": 0}, -32602, "limit 0"),
        ("metadata/search", {"query": 5}, -32602, "query not a string"),
        ("metadata/get", {}, -32602, "get without externalId"),
        ("metadata/match", {"year": 2001}, -32602, "match without title"),
        ("metadata/series/search", {"query": "x"}, -32601, "unknown method"),
        ("metadata/get", {"externalId": "nope"}, -32002, "unknown externalId"),
    ]
    for method, params, code, what in cases:
        r = plugin.request(method, params)
        check(r.get("error", {}).get("code") == code, f"{what} -> {code}")
    r = plugin.request("metadata/search", {"query": "harbor", "cursor": "abc", "future": 1})
    check("result" in r, "unknown params are ignored (decision 8.8)")
    r = plugin.request("initialize", {"config": {"defaultLimit": "many"}})
    check(r.get("error", {}).get("code") == -32005, "a bad config -> -32005 config_error")
    plugin.proc.stdin.close()
    check(plugin.wait() == 0, "the plugin exits 0 at stdin EOF")


def errors(command):
    for key, code, what in (("revoked", -32003, "auth_failed"), ("throttled", -32001, "rate_limited"),
                            ("broken", -32004, "api_error"), (None, -32005, "config_error")):
        env = dict(os.environ)
        env.pop("API_KEY", None)
        if key:
            env["API_KEY"] = key
        plugin = Plugin(command, env)
        initialize(plugin, {"config": {}})
        r = plugin.request("metadata/search", {"query": "harbor"})
        err = r.get("error", {})
        check(err.get("code") == code, f"API_KEY={key}: {what} ({code})")
        if code == -32001:
            data = err.get("data", {})
            check(isinstance(data.get("retryAfterSeconds"), int) and data["retryAfterSeconds"] >= 0,
                  "rate_limited data.retryAfterSeconds")
        if code == -32004:
            check(isinstance(err.get("data", {}).get("statusCode"), int), "api_error data.statusCode")
        plugin.request("shutdown", omit_params=True)
        check(plugin.wait() == 0, "exit 0 after shutdown")
    # init_message delivery: the message's credentials, no variable (spec 2.2).
    env = dict(os.environ)
    env.pop("API_KEY", None)
    plugin = Plugin(command, env)
    initialize(plugin, {"config": {}, "credentials": {"api_key": "from-message"}})
    check("result" in plugin.request("metadata/search", {"query": "harbor"}),
          "credentials from the initialize message")
    plugin.request("shutdown", omit_params=True)
    check(plugin.wait() == 0, "exit 0 after shutdown")


def main():
    if len(sys.argv) < 4 or sys.argv[2] != "--" or sys.argv[1] not in ("session", "malformed", "errors"):
        print(__doc__, file=sys.stderr)
        return 2
    {"session": session, "malformed": malformed, "errors": errors}[sys.argv[1]](sys.argv[3:])
    print("all checks passed" if failures == 0 else f"{failures} check(s) FAILED")
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
