#!/usr/bin/env python3
"""An MCP server that asks its client: it accepts initialize (declaring no capabilities), and once
notifications/initialized has come it sends the requests listed in the JSON array argv[2] (each
{"method": ..., "params": ...}), with ids 0, 1, ... in that order. For each answer it writes a
line to the file named by argv[1]: '<id> result' or '<id> error <code>'. It answers ping, and
exits when its stdin reaches EOF.

Written from the MCP specification (lifecycle, stdio transport, the client features: roots,
sampling, elicitation), not from rpckit's code."""
import json
import sys

from stdio_peer import accept_initialize, note as note_in, send

out = sys.argv[1]
requests = json.loads(sys.argv[2])


def note(text):
    note_in(out, text)


for line in sys.stdin:
    message = json.loads(line)
    method = message.get("method")
    if method == "initialize":
        accept_initialize(message, "asking-server")
    elif method == "notifications/initialized":
        for i, request in enumerate(requests):
            send({"jsonrpc": "2.0", "id": i, "method": request["method"],
                  "params": request["params"]})
    elif method == "ping":
        send({"jsonrpc": "2.0", "id": message["id"], "result": {}})
    elif method is None and "id" in message:
        if "error" in message:
            note("%s error %s" % (message["id"], message["error"]["code"]))
        else:
            note("%s result" % message["id"])
