#!/usr/bin/env python3
"""A Codex metadata plugin (protocol 1.0) that misbehaves in one way, chosen by its argument,
and is otherwise correct: the host must name each misbehaviour with the spec's failure class
and never hang. Standard library only.

  misbehaving_plugin.py MODE
"""
import json
import os
import sys
import time

MODES = {
    "silent": "never answers initialize",                       # initialize_timeout
    "init-error": "answers initialize with -32005",              # initialize_failed
    "bad-version": "manifest protocolVersion 2.0",               # protocol_version_mismatch
    "bad-manifest": "manifest without displayName",              # invalid_manifest
    "no-capability": "seriesMetadataProvider false",             # not_a_metadata_provider
    "ping-number": "ping answered 42",                           # health_check_failed
    "crash": "exits 3 on the first metadata call",               # process_lost
    "hang-search": "never answers metadata/search",              # request_timeout
    "bad-result": "metadata/search result without results",     # invalid_result
    "auth-fail": "every metadata call answered -32003",          # auth_failed, consecutive_call_failures
    "huge-line": "answers metadata/search with a 2 MiB line",    # oversized_line
    "no-exit": "answers shutdown but keeps running",            # exit_timeout
    "exit-1": "exits 1 after answering shutdown",               # unclean_exit
    "shutdown-error": "answers shutdown with an error, exits",   # shutdown_failed
    "ignore-shutdown": "never answers shutdown, keeps running",  # shutdown_timeout
}

MODE = sys.argv[1] if len(sys.argv) > 1 else ""
if MODE not in MODES:
    sys.stderr.write("usage: misbehaving_plugin.py MODE\n" +
                     "".join(f"  {m}: {d}\n" for m, d in MODES.items()))
    sys.exit(2)


def send(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def result(rid, value):
    send({"jsonrpc": "2.0", "id": rid, "result": value})


def error(rid, code, message, data=None):
    err = {"code": code, "message": message}
    if data is not None:
        err["data"] = data
    send({"jsonrpc": "2.0", "id": rid, "error": err})


SERIES = {"externalId": "m-1", "title": "Blue Harbor", "year": 2011, "score": 100}


def manifest():
    m = {"name": "misbehaving", "displayName": "Misbehaving", "version": "0.0.1",
         "protocolVersion": "1.0", "capabilities": {"seriesMetadataProvider": True}}
    if MODE == "bad-version":
        m["protocolVersion"] = "2.0"
    if MODE == "bad-manifest":
        del m["displayName"]
    if MODE == "no-capability":
        m["capabilities"] = {}
    return m


def handle(msg):
    rid, method = msg.get("id"), msg.get("method")
    metadata = method.startswith("metadata/") if isinstance(method, str) else False
    if method == "initialize":
        if MODE == "silent":
            return
        if MODE == "init-error":
            return error(rid, -32005, "missing configuration")
        return result(rid, manifest())
    if method == "ping":
        return result(rid, 42 if MODE == "ping-number" else "pong")
    if method == "shutdown":
        if MODE == "ignore-shutdown":
            return
        if MODE == "shutdown-error":
            error(rid, -32603, "could not clean up")
            sys.exit(0)
        result(rid, None)
        if MODE == "no-exit":
            return
        sys.exit(1 if MODE == "exit-1" else 0)
    if metadata and MODE == "crash":
        os._exit(3)
    if metadata and MODE == "auth-fail":
        return error(rid, -32003, "credentials rejected")
    if method == "metadata/search":
        if MODE == "hang-search":
            return
        if MODE == "bad-result":
            return result(rid, {"total": 1})
        if MODE == "huge-line":
            return result(rid, {"results": [dict(SERIES, summary="x" * (2 << 20))]})
        return result(rid, {"results": [SERIES]})
    if method == "metadata/get":
        if msg.get("params", {}).get("externalId") != "m-1":
            return error(rid, -32002, "not found")
        return result(rid, {"externalId": "m-1", "titles": [{"value": "Blue Harbor"}]})
    if method == "metadata/match":
        return result(rid, {"match": SERIES, "confidence": 100})
    return error(rid, -32601, "Method not found")


for line in sys.stdin:
    if not line.strip():
        continue
    try:
        message = json.loads(line)
    except ValueError:
        error(None, -32700, "Parse error")
        continue
    handle(message)
# stdin EOF: exit 0, as the spec asks (unless told to keep running).
if MODE in ("no-exit", "ignore-shutdown"):
    time.sleep(3600)
