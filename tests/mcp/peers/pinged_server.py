#!/usr/bin/env python3
"""An MCP server that accepts initialize and writes to the file named by argv[1] a line "ping" for
every ping it is sent, and "stdin closed" when its stdin reaches EOF (then it exits). With
argv[2] "answers" it answers each ping with an empty result (basic/utilities/ping: the receiver
MUST respond promptly with an empty response); with "silent" it answers none, as a server that
has stopped serving would.

Written from the MCP specification (lifecycle, ping, stdio transport), not from rpckit's code."""
import json
import sys

out = sys.argv[1]
answers = sys.argv[2] == "answers"


def note(text):
    with open(out, "a") as f:
        f.write(text + "\n")


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    message = json.loads(line)
    method = message.get("method")
    if method == "initialize":
        send({"jsonrpc": "2.0", "id": message["id"],
              "result": {"protocolVersion": message["params"]["protocolVersion"],
                         "capabilities": {},
                         "serverInfo": {"name": "pinged-server", "version": "1"}}})
    elif method == "ping":
        note("ping")
        if answers:
            send({"jsonrpc": "2.0", "id": message["id"], "result": {}})
note("stdin closed")
