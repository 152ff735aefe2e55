#!/usr/bin/env python3
"""An MCP server that refuses initialize (-32602, as for a protocol version it does not speak)
and writes to the file named by argv[1] how its session ended: "stdin closed" when its stdin
reached EOF, "SIGTERM" when that signal came. With argv[2] "stays", it does not exit at EOF (as
a server with work of its own might not) and waits for a signal. With argv[2] "2024-11-05", it
answers initialize with that protocol version, the only one it speaks (lifecycle, "Version
Negotiation": a server that does not support the requested version answers another it does).

Written from the MCP specification (lifecycle, stdio transport), not from rpckit's code."""
import json
import signal
import sys

out = sys.argv[1]
mode = sys.argv[2] if len(sys.argv) > 2 else ""
stays = mode == "stays"


def note(text):
    with open(out, "a") as f:
        f.write(text + "\n")


def on_sigterm(*_):
    note("SIGTERM")
    sys.exit(0)


signal.signal(signal.SIGTERM, on_sigterm)
for line in sys.stdin:
    message = json.loads(line)
    if message.get("method") == "initialize" and mode == "2024-11-05":
        sys.stdout.write(json.dumps({
            "jsonrpc": "2.0", "id": message["id"],
            "result": {"protocolVersion": mode, "capabilities": {},
                       "serverInfo": {"name": "older-server", "version": "1"}}}) + "\n")
        sys.stdout.flush()
    elif message.get("method") == "initialize":
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
