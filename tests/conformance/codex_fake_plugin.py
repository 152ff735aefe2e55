#!/usr/bin/env python3
"""A fake Codex metadata plugin, protocol 1.0 (spec: codex-metadata-plugins-v1.md), for
testing HOSTS.

usage: codex_fake_plugin.py <mode>      (the host spawns it; see README.md)

It implements initialize (manifest with capabilities.seriesMetadataProvider true), ping,
shutdown and metadata/search|get|match over a one-series catalog ("Blue Harbor", externalId
"fake-1"). Everything it receives and observes goes to $FAKE_REPORT (see fakelib.py); a host
that restarts the plugin adds one run per process. run["env_API_KEY"] records whether the
credential variable arrived.

Modes (one per host-side rule):
  well_behaved                follows the spec; after answering shutdown it exits 0 (~100 ms)
  string_decimal_ids          answers with the id as a decimal string ("3" for 3) (section 1:
                              the host accepts it)
  oversize_line               before answering each metadata call, writes a 2 MiB line (a
                              padded response to the same id), then the real answer (decision
                              8.12: the host discards the long line; not a reason to kill)
  output_flood                on the first metadata call of the first run, writes 110 MiB of
                              stdout (responses to an id never sent, 512 KiB each) (decision
                              8.12: the host restarts a plugin whose stdout passed 100 MiB);
                              later runs behave
  fail_initialize             answers initialize with an error and stays alive until killed or
                              stdin EOF (section 2: three failed initializations within 3600 s
                              disable the plugin; no shutdown is sent; kill after 5 s)
  rate_limited                per process: the 1st metadata call gets -32001 with
                              data.retryAfterSeconds 1, the 2nd -32001 without data, later ones
                              succeed (section 3: the host uses retryAfterSeconds, 60 when absent)
  stays_alive_after_shutdown  answers shutdown but does not exit (section 2: the host keeps stdin
                              OPEN during its 5 s wait, then kills); run["stdin_eof_during_wait"]
                              says whether stdin reached EOF within 5 s x $FAKE_TIME_SCALE of the
                              answer (judged with half that, to absorb scheduling delays)
"""

import json
import os
import signal
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fakelib import Fake

MODES = ["well_behaved", "string_decimal_ids", "oversize_line", "output_flood", "fail_initialize",
         "rate_limited", "stays_alive_after_shutdown"]
MANIFEST = {"name": "conformance-fake", "displayName": "Conformance Fake", "version": "1.0.0",
            "description": "fake plugin for host conformance tests", "author": "rpckit tests",
            "protocolVersion": "1.0", "capabilities": {"seriesMetadataProvider": True}}
RESULT = {"externalId": "fake-1", "title": "Blue Harbor", "year": 2001, "score": 90}
SERIES = {"externalId": "fake-1", "titles": [{"value": "Blue Harbor", "primary": True}],
          "year": 2001, "status": "completed"}
OVERSIZE = 2 * 1024 * 1024
FLOOD_TOTAL = 110 * 1024 * 1024
FLOOD_LINE = 512 * 1024
SHUTDOWN_WAIT = 5.0


class CodexFake:
    def __init__(self, mode):
        self.f = Fake(mode, MODES)
        self.mode = mode
        self.metadata_calls = 0
        self.flooding = False
        self.f.run["env_API_KEY"] = os.environ.get("API_KEY")
        self.f.on_signal(signal.SIGTERM, lambda name: self.f.exit(0))

    def answer(self, rid, result=None, error=None):
        if self.mode == "string_decimal_ids" and isinstance(rid, int) and not isinstance(rid, bool):
            rid = str(rid)
        msg = {"jsonrpc": "2.0", "id": rid}
        if error is not None:
            msg["error"] = error
        else:
            msg["result"] = result
        self.f.send(msg)

    def flood(self):
        """Queues the flood ahead of the answer being served (the writer thread writes in
        order, so the answer comes after 110 MiB a capped host never reads)."""
        self.f.event("flood_started", total=FLOOD_TOTAL)
        head = b'{"jsonrpc":"2.0","id":999999999,"result":"'
        line = head + b"x" * (FLOOD_LINE - len(head) - 3) + b'"}\n'
        for _ in range(FLOOD_TOTAL // FLOOD_LINE + 1):
            self.f.send_raw(line)

        def done():
            if self.f.flush(timeout=3600):
                self.f.event("flood_written")
        threading.Thread(target=done, daemon=True).start()

    def metadata(self, rid, method, params):
        self.metadata_calls += 1
        if self.mode == "output_flood" and self.f.run_index == 0 and not self.flooding:
            self.flooding = True
            self.flood()
        if self.mode == "rate_limited" and self.metadata_calls == 1:
            self.answer(rid, error={"code": -32001, "message": "provider throttled (fake)",
                                    "data": {"retryAfterSeconds": 1}})
            self.f.event("rate_limited_answered", retry_after=1, id=rid)
            return
        if self.mode == "rate_limited" and self.metadata_calls == 2:
            self.answer(rid, error={"code": -32001, "message": "provider throttled (fake), no data"})
            self.f.event("rate_limited_answered", retry_after=None, id=rid)
            return
        if not isinstance(params, dict):
            self.answer(rid, error={"code": -32602, "message": "params must be an object"})
            return
        if method == "metadata/search":
            if not isinstance(params.get("query"), str) or not params["query"]:
                self.answer(rid, error={"code": -32602, "message": "query is required"})
                return
            result = {"results": [RESULT], "totalResults": 1, "page": 1, "hasNextPage": False}
        elif method == "metadata/get":
            if params.get("externalId") != "fake-1":
                self.answer(rid, error={"code": -32002, "message": "not found"})
                return
            result = SERIES
        else:
            result = {"match": RESULT, "confidence": 90}
        if self.mode == "oversize_line":
            head = ('{"jsonrpc":"2.0","id":%s,"result":{"oversize":true,"pad":"'
                    % json.dumps(rid)).encode()
            self.f.send_raw(head + b"x" * (OVERSIZE - len(head) - 4) + b'"}}\n', "2 MiB line")
            self.f.event("oversize_line_written", bytes=OVERSIZE)
        self.answer(rid, result)

    def shutdown(self, rid):
        self.answer(rid, None)
        self.f.flush()
        answered = time.time()
        self.f.note("shutdown_answered_at", answered)
        if self.mode != "stays_alive_after_shutdown":
            time.sleep(0.1)  # decision 8.4: exit promptly once the reply is flushed
            self.f.exit(0)
        self.f.note("stdin_eof_during_wait", False)
        self.f.event("staying_alive_after_shutdown")

    def handle(self, msg):
        if msg is None:
            self.answer(None, error={"code": -32700, "message": "parse error"})
            return
        if not isinstance(msg, dict) or msg.get("jsonrpc") != "2.0" \
                or not isinstance(msg.get("method"), str) or "id" not in msg:
            self.answer(msg.get("id") if isinstance(msg, dict) else None,
                        error={"code": -32600, "message": "invalid request"})
            return
        rid, method, params = msg["id"], msg["method"], msg.get("params")
        if method == "initialize":
            if self.mode == "fail_initialize":
                self.answer(rid, error={"code": -32005, "message": "fake: refusing to initialize"})
                self.f.event("initialize_failed")
            else:
                self.answer(rid, MANIFEST)
        elif method == "ping":
            self.answer(rid, "pong")
        elif method == "shutdown":
            self.shutdown(rid)
        elif method in ("metadata/search", "metadata/get", "metadata/match"):
            self.metadata(rid, method, params)
        else:
            self.answer(rid, error={"code": -32601, "message": "method not found: %s" % method})

    def main(self):
        for msg in self.f.lines():
            self.handle(msg)
        self.f.event("stdin_eof")
        answered = self.f.run.get("shutdown_answered_at")
        if self.mode == "stays_alive_after_shutdown" and answered is not None:
            during = time.time() - answered < 0.5 * SHUTDOWN_WAIT * self.f.time_scale
            self.f.note("stdin_eof_during_wait", during)
            self.f.sleep_forever()  # still not exiting: the host must kill us
        if self.mode == "fail_initialize":
            self.f.exit(1)
        self.f.exit(0)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.stderr.write(__doc__)
        sys.exit(2)
    CodexFake(sys.argv[1]).main()
