#!/usr/bin/env python3
"""An MCP server that runs tools/call as a task when asked (basic/utilities/tasks): it declares
tasks.requests.tools.call and tools, answers a tools/call whose params carry `task` with a
CreateTaskResult ({task: {taskId, status "working", createdAt, lastUpdatedAt, ttl}}) and one
without `task` with a CallToolResult, and tasks/result with the CallToolResult the task's call
would have returned. Each tools/call and tasks/result it is sent is written to the file named by
argv[1] ("call task", "call plain", "result <taskId>"), so a test sees what reached it.

Written from the MCP specification (lifecycle, tools, tasks, stdio transport), not from rpckit's
code."""
import json
import sys

from stdio_peer import note as note_in, send

out = sys.argv[1]
NOW = "2025-11-25T10:00:00Z"

for line in sys.stdin:
    message = json.loads(line)
    method = message.get("method")
    if method == "initialize":
        send({"jsonrpc": "2.0", "id": message["id"],
              "result": {"protocolVersion": message["params"]["protocolVersion"],
                         "capabilities": {"tools": {},
                                          "tasks": {"requests": {"tools": {"call": {}}}}},
                         "serverInfo": {"name": "task-server", "version": "1"}}})
    elif method == "tools/call":
        params = message["params"]
        if "task" in params:
            note_in(out, "call task")
            send({"jsonrpc": "2.0", "id": message["id"],
                  "result": {"task": {"taskId": "task-1", "status": "working",
                                      "createdAt": NOW, "lastUpdatedAt": NOW,
                                      "ttl": params["task"].get("ttl"), "pollInterval": 500}}})
        else:
            note_in(out, "call plain")
            send({"jsonrpc": "2.0", "id": message["id"],
                  "result": {"content": [{"type": "text", "text": "done"}]}})
    elif method == "tasks/result":
        # The task is done: exactly what tools/call would have returned, with the related-task
        # _meta the spec requires.
        note_in(out, "result " + message["params"]["taskId"])
        send({"jsonrpc": "2.0", "id": message["id"],
              "result": {"content": [{"type": "text", "text": "done"}],
                         "_meta": {"io.modelcontextprotocol/related-task":
                                   {"taskId": message["params"]["taskId"]}}}})
    elif "id" in message and method is not None:
        send({"jsonrpc": "2.0", "id": message["id"],
              "error": {"code": -32601, "message": "Method not found"}})
