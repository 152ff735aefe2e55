#!/usr/bin/env python3
"""An MCP server that refuses initialize (-32602, as for a protocol version it does not speak)
and writes to the file named by argv[1] how its session ended: "stdin closed" when its stdin
reached EOF, "SIGTERM" when that signal came. With argv[2] "stays", it does not exit at EOF (as
a server with work of its own might not) and waits for a signal.

Written from the MCP specification (lifecycle, stdio transport), not from rpckit's code."""
import json
import signal
import sys

out, stays = sys.argv[1], len(sys.argv) > 2 and sys.argv[2] == "stays"


def note(text):
    with open(out, "a") as f:
        f.write(text + "\n")


def on_sigterm(*_):
    note("SIGTERM")
    sys.exit(0)


signal.signal(signal.SIGTERM, on_sigterm)
for line in sys.stdin:
    message = json.loads(line)
    if message.get("method") == "initialize":
        sys.stdout.write(json.dumps({
            "jsonrpc": "2.0", "id": message["id"],
            "error": {"code": -32602, "message": "Unsupported protocol version",
                      "data": {"supported": ["1999-01-01"],
                               "requested": message["params"]["protocolVersion"]}}}) + "\n")
        sys.stdout.flush()
note("stdin closed")
if stays:
    while True:
        signal.pause()
