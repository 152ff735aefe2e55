#!/usr/bin/env python3
"""A core line plugin (rterm.plugin.v1) that breaks one rule, chosen by its first argument, for
the failure classes core-line-host must report (spec section 3). It is `test.misbehaving`,
exposes the tool `echo` (output = input) and declares `tool.execute`, unless the mode says
otherwise. Written from the spec alone.

Handshake reply (step 5 and before):
  exit_early        exits 5 before answering                      -> crashed
  silent            never answers                                 -> timeout
  not_json          answers a line that is not JSON               -> malformed_response
  empty_line        answers an empty line                         -> malformed_response
  oversize          answers a line of 1 MiB + 1 byte              -> malformed_response
  numeric_id        plugin_id is a number                         -> malformed_response
  wrong_type        type "hello"                                  -> handshake_failed
  v2                speaks rterm.plugin.v2                        -> protocol_version_mismatch
  no_manifest       no manifest at all                            -> protocol_version_mismatch
  v2_blank_id       v2 and a blank plugin_id (version first)      -> protocol_version_mismatch
  blank_id          plugin_id "  "                                -> handshake_failed
  blank_version     plugin_version ""                             -> handshake_failed
  no_tools          exposed_tools []                              -> handshake_failed
  caps LIST         declares the comma-separated LIST ("null": null, "": [])
The request and after (steps 6 to 9):
  crash_on_request  exits 4 on reading the request                -> crashed
  hang_request      never answers the request                     -> timeout (invoke deadline)
  resp_wrong_id     answers another request_id                    -> malformed_response
  resp_numeric_id   request_id is a number                        -> malformed_response
  resp_bad_status   status "maybe"                                -> malformed_response
  resp_ok_and_error status "ok" with an error                     -> malformed_response
  resp_blank_message status "error", message " "                  -> malformed_response
  resp_wrong_type   type "result"                                 -> malformed_response
  resp_error        a proper plugin error                         -> plugin error (exit 3)
  bad_exit          answers ok, then exits 6                      -> crashed
  linger            answers ok, then never exits                  -> crashed (teardown)
  env               answers ok with its whole environment as output
  ok                behaves
"""
import json
import os
import sys
import time

MODE = sys.argv[1]
ARG = sys.argv[2] if len(sys.argv) > 2 else ""


def send_line(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def send(message):
    send_line(json.dumps(message))


def read():
    line = sys.stdin.readline()
    if not line:
        sys.exit(7)
    return json.loads(line)


def forever():
    while True:  # killed by the core
        time.sleep(1)


hello = read()
manifest = {"plugin_id": "test.misbehaving", "plugin_version": "0.1.0",
            "protocol_version": hello["protocol_version"], "exposed_tools": ["echo"],
            "capabilities": ["tool.execute"]}
reply = {"type": "handshake", "manifest": manifest}

if MODE == "exit_early":
    sys.exit(5)
if MODE == "silent":
    forever()
if MODE == "not_json":
    send_line("hello, core")
    forever()
if MODE == "empty_line":
    send_line("")
    forever()
if MODE == "oversize":
    send_line("x" * (1024 * 1024 + 1))
    forever()
if MODE == "numeric_id":
    manifest["plugin_id"] = 5
if MODE == "wrong_type":
    reply["type"] = "hello"
if MODE in ("v2", "v2_blank_id"):
    manifest["protocol_version"] = "rterm.plugin.v2"
if MODE == "no_manifest":
    del reply["manifest"]
if MODE in ("blank_id", "v2_blank_id"):
    manifest["plugin_id"] = "  "
if MODE == "blank_version":
    manifest["plugin_version"] = ""
if MODE == "no_tools":
    manifest["exposed_tools"] = []
if MODE == "caps":
    manifest["capabilities"] = None if ARG == "null" else ARG.split(",") if ARG else []
send(reply)

request = read()
if MODE == "crash_on_request":
    sys.exit(4)
if MODE == "hang_request":
    forever()
response = {"type": "response", "request_id": request["request_id"], "status": "ok",
            "output": request["input"]}
if MODE == "resp_wrong_id":
    response["request_id"] = "plugin_req_0000000000000000"
if MODE == "resp_numeric_id":
    response["request_id"] = 12
if MODE == "resp_bad_status":
    response["status"] = "maybe"
if MODE == "resp_ok_and_error":
    response["error"] = {"code": "x", "message": "but it was ok"}
if MODE == "resp_blank_message":
    response.update(status="error", error={"code": "x", "message": " "})
if MODE == "resp_wrong_type":
    response["type"] = "result"
if MODE == "resp_error":
    response.update(status="error", error={"code": "invalid_input", "message": "no text given"})
    del response["output"]
if MODE == "env":
    response["output"] = dict(os.environ)
send(response)
if MODE == "bad_exit":
    sys.exit(6)
if MODE == "linger":
    forever()
