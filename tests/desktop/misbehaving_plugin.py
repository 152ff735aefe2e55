#!/usr/bin/env python3
"""A desktop plugin that breaks one rule of desktop-plugins v1, chosen by its argument, for the
failure classes desktop-host must report. It answers plugin/health {ok: true} (unless the mode
is about health) and every other request with -32601, then misbehaves:

  silent        never answers plugin/health                      -> health_timeout
  unhealthy     answers plugin/health {ok: false}                -> unhealthy
  health_error  answers plugin/health with a code-less error     -> unhealthy
  crash         exits 3 on the first request after health        -> crashed
  no_shutdown   never answers plugin/shutdown (and keeps going)  -> shutdown_timeout
  linger        answers plugin/shutdown, then does not exit      -> exit_timeout
  bad_exit      answers plugin/shutdown, then exits 4            -> crashed
"""
import json
import os
import sys
import time

MODE = sys.argv[1]


def send(message):
    message["jsonrpc"] = "2.0"
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def linger():
    while True:  # killed by the host after its exit grace
        time.sleep(1)


for line in sys.stdin:
    if not line.strip():
        continue
    message = json.loads(line)
    method, request_id = message.get("method"), message.get("id")
    if method == "plugin/health":
        if MODE == "silent":
            continue
        if MODE == "unhealthy":
            send({"id": request_id, "result": {"ok": False, "plugin_id": "misbehaving"}})
        elif MODE == "health_error":
            send({"id": request_id, "error": {"message": "not ready"}})
        else:
            send({"id": request_id, "result": {"ok": True}})
    elif method == "plugin/shutdown":
        if MODE == "no_shutdown":
            continue
        send({"id": request_id, "result": {"ok": True}})
        if MODE == "linger":
            linger()
        if MODE == "bad_exit":
            os._exit(4)
        os._exit(0)
    elif request_id is not None:
        if MODE == "crash":
            os._exit(3)
        send({"id": request_id, "error": {"code": -32601, "message": "Method not found"}})
sys.exit(0)  # stdin EOF: as plugin/shutdown
