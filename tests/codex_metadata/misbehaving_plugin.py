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
    # For the host library's tests (tests/codex_metadata/host_library_test.cpp):
    "well-behaved": "answers everything; see below",
    "string-ids": "answers with the decimal string of the request's id",
    "noisy": "100,000 non-JSON lines before each metadata/search answer",
    "long-line": "a 64 MiB non-JSON line before each metadata/search answer",
    "flood": "first process: 101 MiB of responses to an id never sent on metadata/search",
    "init-error-exit": "answers initialize with -32005, exits 0 by itself half a second later",
}
# In every mode: the manifest's description is JSON {"env": $API_KEY, "credentials": ...,
# "config": ...} as initialize received them; a metadata/search result's totalResults counts
# the metadata calls this process received; metadata/search with query "throttle:<data>"
# answers -32001 with that data (JSON; none when empty); metadata/get of an unknown id
# answers -32002.

MODE = sys.argv[1] if len(sys.argv) > 1 else ""
if MODE not in MODES:
    sys.stderr.write("usage: misbehaving_plugin.py MODE\n" +
                     "".join(f"  {m}: {d}\n" for m, d in MODES.items()))
    sys.exit(2)


def send(obj):
    if MODE == "string-ids" and isinstance(obj.get("id"), int):
        obj["id"] = str(obj["id"])
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def flood_once():
    # A file marks the flood as done, so the process the host starts next behaves.
    marker = os.environ.get("CODEX_TEST_FLOOD_MARKER")
    if not marker or os.path.exists(marker):
        return
    open(marker, "w").close()
    line = json.dumps({"jsonrpc": "2.0", "id": 999999999,
                       "result": {"pad": "x" * (512 * 1024)}}) + "\n"
    for _ in range((101 << 20) // len(line) + 1):
        sys.stdout.write(line)
    sys.stdout.flush()


def result(rid, value):
    send({"jsonrpc": "2.0", "id": rid, "result": value})


def error(rid, code, message, data=None):
    err = {"code": code, "message": message}
    if data is not None:
        err["data"] = data
    send({"jsonrpc": "2.0", "id": rid, "error": err})


SERIES = {"externalId": "m-1", "title": "Blue Harbor", "year": 2011, "score": 100}


METADATA_CALLS = 0


def manifest(params):
    params = params if isinstance(params, dict) else {}
    seen = {"env": os.environ.get("API_KEY"), "credentials": params.get("credentials"),
            "config": params.get("config")}
    m = {"name": "misbehaving", "displayName": "Misbehaving", "version": "0.0.1",
         "description": json.dumps(seen),
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
        if MODE == "init-error-exit":
            error(rid, -32005, "missing configuration")
            time.sleep(0.5)
            open(os.environ["CODEX_TEST_EXIT_MARKER"], "w").close()
            sys.exit(0)
        return result(rid, manifest(msg.get("params")))
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
    if metadata:
        global METADATA_CALLS
        METADATA_CALLS += 1
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
        query = (msg.get("params") or {}).get("query", "")
        if query.startswith("throttle:"):
            data = query[len("throttle:"):]
            return error(rid, -32001, "provider throttled",
                         json.loads(data) if data else None)
        if MODE == "noisy":
            sys.stdout.write("not json\n" * 100000)
        if MODE == "long-line":
            sys.stdout.write("y" * (64 << 20) + "\n")
        if MODE == "flood":
            flood_once()
        return result(rid, {"results": [SERIES], "totalResults": METADATA_CALLS})
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
