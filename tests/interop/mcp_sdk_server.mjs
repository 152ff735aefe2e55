#!/usr/bin/env node
// A stdio MCP server made with the official TypeScript SDK's Server (pinned in package.json):
// the peer that shows a C++ client's cancel reaching a server nobody here wrote. Its one tool,
// `wait`, runs until the SDK aborts it (on notifications/cancelled naming its request) or `ms`
// pass; either way it appends one JSON line to the file $MCP_SDK_SERVER_REPORT:
// {"tool":"wait","ms":N,"aborted":true|false,"reason":...}.
//
//   MCP_SDK_SERVER_REPORT=/tmp/report.jsonl node tests/interop/mcp_sdk_server.mjs
import { appendFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

import { ROOT } from "./checks.mjs";

const sdk = (p) => createRequire(join(ROOT, "package.json")).resolve(`@modelcontextprotocol/sdk/${p}`);
const { Server } = await import(sdk("server/index.js"));
const { StdioServerTransport } = await import(sdk("server/stdio.js"));
const { CallToolRequestSchema, ListToolsRequestSchema } = await import(sdk("types.js"));

const report = (line) => {
  if (process.env.MCP_SDK_SERVER_REPORT) appendFileSync(process.env.MCP_SDK_SERVER_REPORT, JSON.stringify(line) + "\n");
};

const server = new Server({ name: "rpckit-sdk-peer", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [{
    name: "wait",
    description: "Waits `ms` milliseconds, or until the request is cancelled",
    inputSchema: { type: "object", properties: { ms: { type: "integer", minimum: 0 } }, required: ["ms"] },
  }],
}));
server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
  const ms = Number(request.params.arguments?.ms ?? 0);
  const aborted = await new Promise((resolve) => {
    if (extra.signal.aborted) return resolve(true);
    const timer = setTimeout(() => resolve(false), ms);
    extra.signal.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
  report({ tool: "wait", ms, aborted, reason: aborted ? String(extra.signal.reason) : null });
  return { content: [{ type: "text", text: aborted ? "aborted" : `waited ${ms} ms` }] };
});
await server.connect(new StdioServerTransport());
