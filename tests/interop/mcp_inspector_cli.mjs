#!/usr/bin/env node
// interop.mcp_inspector_cli: the official MCP Inspector's command-line mode
// (@modelcontextprotocol/inspector-cli, pinned in package.json) lists and calls what the sample
// MCP server offers, one Inspector process per method as a user would run it:
//
//   node tests/interop/mcp_inspector_cli.mjs <mcp-sample-server>
//
// The Inspector's own SDK client checks every result against its schemas; this script checks
// what came back. The CLI is the Inspector's v1 line (1.0.3): the v2 Inspector needs Node 22,
// and Debian's Node here is 20.
//
// Prints one line per check and "N passed, M failed"; exits 1 on a failure, 77 when the
// Inspector is not installed (`npm ci` at the repo root).
import { spawnSync } from "node:child_process";
import { dirname, join, resolve } from "node:path";

import { argument, check, finish, pinned } from "./checks.mjs";

const server = argument("mcp_inspector_cli.mjs <mcp-sample-server>");
const cli = join(pinned("@modelcontextprotocol/inspector-cli", "mcp_inspector_cli"), "build", "cli.js");

// One Inspector run: `--cli <server> --method ...`; its JSON output, or null. The Inspector
// finds its own package.json from its working directory, so it runs in its build folder.
function inspect(...args) {
  const out = spawnSync(process.execPath, [cli, "--cli", resolve(server), ...args],
                        { cwd: dirname(cli), encoding: "utf8", timeout: 60000 });
  const text = out.stdout ?? "";
  const start = text.indexOf("{");
  let json = null;
  try {
    json = start >= 0 ? JSON.parse(text.slice(start)) : null;
  } catch {
    json = null;
  }
  return { status: out.status, json, text: `${text}\n${out.stderr ?? ""}` };
}

const tools = inspect("--method", "tools/list");
const names = (tools.json?.tools ?? []).map((t) => t.name);
check("tools/list: add, echo, count, ping_client, summarize, note, toggle_shout", tools.status === 0 &&
      names.join(",") === "add,echo,count,ping_client,summarize,note,toggle_shout", tools.text);
check("tools/list: add's output schema", tools.json?.tools?.[0]?.outputSchema?.properties?.sum?.type === "number",
      tools.text);

const add = inspect("--method", "tools/call", "--tool-name", "add", "--tool-arg", "a=2", "--tool-arg", "b=3.5");
check("tools/call add a=2 b=3.5: 5.5, structured", add.status === 0 &&
      add.json?.structuredContent?.sum === 5.5 && add.json?.content?.[0]?.text === '{"sum":5.5}', add.text);

const echo = inspect("--method", "tools/call", "--tool-name", "echo", "--tool-arg", "text=héllo from the Inspector");
check("tools/call echo", echo.status === 0 && echo.json?.content?.[0]?.text === "héllo from the Inspector",
      echo.text);

const count = inspect("--method", "tools/call", "--tool-name", "count", "--tool-arg", "to=3");
check("tools/call count to=3", count.status === 0 && count.json?.content?.[0]?.text === "3", count.text);

const bad = inspect("--method", "tools/call", "--tool-name", "echo", "--tool-arg", "text=5");
check("tools/call echo with a number: a tool error", bad.status === 0 && bad.json?.isError === true, bad.text);

const summarize = inspect("--method", "tools/call", "--tool-name", "summarize", "--tool-arg", "text=t");
check("tools/call summarize: the Inspector declares no sampling, so the server's gate sends none",
      summarize.status === 0 && summarize.json?.isError === true &&
      /sampling is not granted/.test(summarize.json?.content?.[0]?.text ?? ""), summarize.text);

const resources = inspect("--method", "resources/list");
check("resources/list", resources.status === 0 && resources.json?.resources?.[0]?.uri === "sample://readme",
      resources.text);
const read = inspect("--method", "resources/read", "--uri", "sample://readme");
check("resources/read sample://readme", read.status === 0 &&
      read.json?.contents?.[0]?.text?.includes("rpckit MCP sample"), read.text);

const prompts = inspect("--method", "prompts/list");
check("prompts/list", prompts.status === 0 && prompts.json?.prompts?.[0]?.name === "greet", prompts.text);
const greet = inspect("--method", "prompts/get", "--prompt-name", "greet", "--prompt-args", "name=Ada");
check("prompts/get greet name=Ada", greet.status === 0 &&
      greet.json?.messages?.[0]?.content?.text?.includes("Ada"), greet.text);

const level = inspect("--method", "logging/setLevel", "--log-level", "debug");
check("logging/setLevel debug", level.status === 0 && level.json !== null, level.text);

const templates = inspect("--method", "resources/templates/list");
check("resources/templates/list", templates.status === 0 &&
      templates.json?.resourceTemplates?.[0]?.uriTemplate === "sample://echo/{text}", templates.text);
const echoed = inspect("--method", "resources/read", "--uri", "sample://echo/from%20the%20Inspector");
check("resources/read of the template", echoed.status === 0 &&
      echoed.json?.contents?.[0]?.text === "from the Inspector", echoed.text);
const refused = inspect("--method", "resources/read", "--uri", "sample://none");
check("resources/read of an unknown uri: the Inspector reports the server's error",
      refused.status !== 0 && /-32002/.test(refused.text), refused.text);

finish();
