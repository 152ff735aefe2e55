"""What the spec-written MCP servers here share: one JSON-RPC message per line on stdout
(stdio transport), the notes file a test reads what the server saw from, and the answer to
initialize of a server that declares no capabilities. Written from the MCP specification, not
from rpckit's code."""
import json
import sys


def note(path, text):
    with open(path, "a") as f:
        f.write(text + "\n")


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def accept_initialize(message, name):
    """Answers initialize in the client's own protocol version, declaring no capabilities."""
    send({"jsonrpc": "2.0", "id": message["id"],
          "result": {"protocolVersion": message["params"]["protocolVersion"],
                     "capabilities": {},
                     "serverInfo": {"name": name, "version": "1"}}})
