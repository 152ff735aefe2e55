#!/usr/bin/env python3
"""An MCP server that accepts initialize and writes to the file named by argv[1] a line "ping" for
every ping it is sent, and "stdin closed" when its stdin reaches EOF (then it exits). With
argv[2] "answers" it answers each ping with an empty result (basic/utilities/ping: the receiver
MUST respond promptly with an empty response); with "silent" it answers none, as a server that
has stopped serving would.

Written from the MCP specification (lifecycle, ping, stdio transport), not from rpckit's code."""
import json
import sys

from stdio_peer import accept_initialize, note as note_in, send

out = sys.argv[1]
answers = sys.argv[2] == "answers"


def note(text):
    note_in(out, text)


for line in sys.stdin:
    message = json.loads(line)
    method = message.get("method")
    if method == "initialize":
        accept_initialize(message, "pinged-server")
    elif method == "ping":
        note("ping")
        if answers:
            send({"jsonrpc": "2.0", "id": message["id"], "result": {}})
note("stdin closed")
