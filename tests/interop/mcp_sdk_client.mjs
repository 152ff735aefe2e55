#!/usr/bin/env node
// interop.mcp_sdk_client: the official MCP TypeScript SDK's Client (@modelcontextprotocol/sdk,
// pinned in package.json) drives the sample MCP server (examples/mcp/server) over its stdio
// transport: negotiation, ping, the log level, every tool, resource and prompt the server
// lists, and the errors the specification asks for. The SDK checks every result against its
// own schemas (a structured tool result against the tool's outputSchema too), so a result it
// returns is one it accepts.
//
//   node tests/interop/mcp_sdk_client.mjs <mcp-sample-server>
//
// Prints one line per check and "N passed, M failed"; exits 1 on a failure, 77 when the SDK is
// not installed (`npm ci` at the repo root).
import { createRequire } from "node:module";
import { join } from "node:path";

import { ROOT, argument, check, finish } from "./checks.mjs";

const server = argument("mcp_sdk_client.mjs <mcp-sample-server>");

let Client, StdioClientTransport, McpError, CompleteResultSchema, CallToolResultSchema, LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema, CreateMessageRequestSchema, ToolListChangedNotificationSchema,
  UriTemplate;
try {
  const require = createRequire(join(ROOT, "package.json"));
  const sdk = (p) => require.resolve(`@modelcontextprotocol/sdk/${p}`);
  ({ Client } = await import(sdk("client/index.js")));
  ({ StdioClientTransport } = await import(sdk("client/stdio.js")));
  ({ UriTemplate } = await import(sdk("shared/uriTemplate.js")));
  ({ McpError, CompleteResultSchema, CallToolResultSchema, LoggingMessageNotificationSchema, ResourceUpdatedNotificationSchema,
     CreateMessageRequestSchema, ToolListChangedNotificationSchema } = await import(sdk("types.js")));
} catch (e) {
  console.error(`mcp_sdk_client: the MCP SDK is not installed (${e.code ?? e.message}): run npm ci`);
  process.exit(77);
}

async function rejects(name, promise, code) {
  try {
    await promise;
    check(name, false, "resolved");
  } catch (e) {
    check(name, e instanceof McpError && e.code === code, `${e.constructor.name} ${e.code} ${e.message}`);
  }
}

const stderr = [];
const transport = new StdioClientTransport({ command: server, args: [], stderr: "pipe" });
transport.stderr?.on("data", (d) => stderr.push(String(d)));
const client = new Client({ name: "rpckit-interop", version: "1.0.0" }, { capabilities: { sampling: {} } });
// The model behind this client: what the server's summarize asks for (sampling/createMessage),
// each request kept to be checked.
const samplings = [];
client.setRequestHandler(CreateMessageRequestSchema, (request) => {
  samplings.push(request.params);
  return { role: "assistant", content: { type: "text", text: "a short summary" }, model: "sdk-test-model" };
});
const logs = [];
client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => logs.push(n.params));
// Resolves once `predicate()` holds (polled), or after `ms` with false.
async function until(predicate, ms) {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 20))) {
    if (predicate()) return true;
  }
  return predicate();
}

// The long tool cancelled twice, as the SDK cancels: by the caller's AbortSignal once two
// progress steps have come, and by the SDK's own request timeout. Each time the SDK sends
// notifications/cancelled for the call's id; the server must stop the tool at the step it is
// on (it logs where) and send no response for that id (utilities/cancellation).
async function cancellation() {
  const sent = [];
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    sent.push(message);
    return send(message, options);
  };
  const answered = new Set();
  let onProgress = () => {};
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if (message.id !== undefined && (message.result !== undefined || message.error !== undefined)) {
      answered.add(message.id);
    }
    if (message.method === "notifications/progress") onProgress(message.params);
    deliver(message, extra);
  };
  const callId = () => sent.filter((m) => m.method === "tools/call").at(-1)?.id;
  const cancelOf = (id) => sent.find((m) => m.method === "notifications/cancelled" &&
                                           m.params?.requestId === id);
  const stopped = (reason) => logs.find((l) => typeof l.data === "string" &&
                                             l.data.startsWith("count cancelled") && l.data.endsWith(reason));
  for (const how of ["abort", "timeout"]) {
    const abort = new AbortController();
    let steps = 0;
    onProgress = () => { if (++steps === 2 && how === "abort") abort.abort("enough counting"); };
    const options = how === "abort" ? { signal: abort.signal } : { timeout: 400 };
    let outcome = "resolved";
    try {
      await client.callTool({ name: "count", arguments: { to: 50, delay_ms: 100 } }, undefined,
                            { ...options, onprogress: () => {} });
    } catch (e) {
      outcome = `${e.constructor.name} ${e.code ?? ""} ${e.message}`;
    }
    const id = callId();
    const cancel = cancelOf(id);
    check(`cancellation by ${how}: the SDK gives up on the call and sends notifications/cancelled`,
          outcome !== "resolved" && cancel !== undefined, `${outcome}; sent ${JSON.stringify(cancel)}`);
    const reason = cancel?.params?.reason ?? "(none)";
    const logged = await until(() => stopped(reason) !== undefined, 10000);
    const at = /before step (\d+) of 50/.exec(stopped(reason)?.data ?? "")?.[1];
    check(`cancellation by ${how}: the tool stops at the step it is on and logs the reason`,
          logged && Number(at) < 50 && steps < 50, `${JSON.stringify(logs.at(-1))}; ${steps} steps`);
    // A round trip after the tool has stopped: an answer to the cancelled call would be here.
    await client.ping();
    check(`cancellation by ${how}: no response to the cancelled call`, !answered.has(id),
          `a response for id ${id}`);
  }
  transport.send = send;
  transport.onmessage = deliver;
}

// Tasks (basic/utilities/tasks), with the SDK's experimental task client: callToolStream sends
// tools/call with `task`, takes the CreateTaskResult, polls tasks/get at the server's
// pollInterval until the task is terminal, then asks tasks/result (checked against
// CallToolResultSchema). Then a long count cancelled by tasks/cancel while the stream polls it,
// and tasks/list.
const statuses = [];
async function tasks(caps) {
  check("initialize: tasks declared (tools/call as a task, tasks/list, tasks/cancel)",
        !!caps.tasks?.requests?.tools?.call && !!caps.tasks?.list && !!caps.tasks?.cancel,
        JSON.stringify(caps.tasks));
  const seen = [];
  let result;
  for await (const message of client.experimental.tasks.callToolStream(
    { name: "count", arguments: { to: 3, delay_ms: 100 } }, CallToolResultSchema, { task: { ttl: 60000 } })) {
    seen.push(message.type === "taskStatus" ? `taskStatus ${message.task.status}` : message.type);
    if (message.type === "result") result = message.result;
    if (message.type === "error") seen.push(String(message.error));
  }
  check("a task-augmented tools/call: created, polled by tasks/get, then its result",
        seen[0] === "taskCreated" && seen.includes("taskStatus completed") && seen.at(-1) === "result",
        seen.join(", "));
  check("tasks/result: the count's CallToolResult, naming its task in _meta",
        result?.content?.[0]?.text === "3" &&
        typeof result?._meta?.["io.modelcontextprotocol/related-task"]?.taskId === "string",
        JSON.stringify(result));

  const stream = client.experimental.tasks.callToolStream(
    { name: "count", arguments: { to: 60, delay_ms: 1000 } }, CallToolResultSchema, { task: { ttl: 60000 } });
  const created = (await stream.next()).value;
  const id = created?.task?.taskId;
  check("a long count as a task: created, working", created?.type === "taskCreated" &&
        created.task.status === "working", JSON.stringify(created));
  const working = await client.experimental.tasks.getTask(id);
  check("tasks/get: working", working.status === "working" && working.taskId === id, JSON.stringify(working));
  const cancelled = await client.experimental.tasks.cancelTask(id);
  check("tasks/cancel: the task, cancelled", cancelled.status === "cancelled" && cancelled.taskId === id,
        JSON.stringify(cancelled));
  const rest = [];
  for await (const message of stream) {
    rest.push(message.type === "taskStatus" ? `taskStatus ${message.task.status}` : message.type);
  }
  check("the stream sees the cancel and ends with an error", rest.join(",") === "taskStatus cancelled,error",
        rest.join(","));
  await rejects("tasks/cancel of a cancelled task: -32602", client.experimental.tasks.cancelTask(id), -32602);
  await rejects("tasks/get of an unknown task: -32602", client.experimental.tasks.getTask("nope"), -32602);
  const listed = await client.experimental.tasks.listTasks();
  check("tasks/list: both tasks", listed.tasks?.length === 2 && listed.tasks[1].taskId === id &&
        listed.tasks[1].status === "cancelled", JSON.stringify(listed));
  check("notifications/tasks/status for the completed and the cancelled task",
        await until(() => statuses.some((s) => s.taskId === id && s.status === "cancelled") &&
                          statuses.some((s) => s.status === "completed"), 5000),
        JSON.stringify(statuses));
  await rejects("tools/call of echo as a task: -32601 (its taskSupport forbids it)",
                client.request({ method: "tools/call", params: { name: "echo", arguments: { text: "x" }, task: {} } },
                               CallToolResultSchema), -32601);
}

const timer = setTimeout(() => {
  console.log("FAIL timed out");
  process.exit(1);
}, 60000);

try {
  await client.connect(transport);
  check("initialize: server info", client.getServerVersion()?.name === "rpckit-mcp-sample");
  const caps = client.getServerCapabilities() ?? {};
  check("initialize: capabilities", caps.tools?.listChanged === true && !!caps.resources && !!caps.prompts && !!caps.logging,
        JSON.stringify(caps));
  check("initialize: instructions", typeof client.getInstructions() === "string");

  check("ping", JSON.stringify(await client.ping()) === "{}");
  check("logging/setLevel", JSON.stringify(await client.setLoggingLevel("debug")) === "{}");

  const { tools } = await client.listTools();
  check("tools/list", tools.map((t) => t.name).join(",") ===
        "add,echo,count,ping_client,summarize,note,toggle_shout", JSON.stringify(tools));
  const add = tools.find((t) => t.name === "add");
  // Its schemas are those of the structs its arguments and result decode into (x-type-schemas).
  check("tools/list: add's input and output schema, from its generated types",
        add?.inputSchema?.type === "object" && add.inputSchema.required?.join(",") === "a,b" &&
        add.inputSchema.properties?.a?.type === "number" &&
        add.outputSchema?.properties?.sum?.type === "number", JSON.stringify(add));
  const toggle = tools.find((t) => t.name === "toggle_shout");
  check("tools/list: a schema's top-level keywords reach the client (open ToolInputSchema)",
        add.inputSchema.description === "add: the two numbers." &&
        toggle?.inputSchema?.additionalProperties === false &&
        Object.keys(toggle.inputSchema.properties ?? {}).length === 0, JSON.stringify(toggle));
  const count = tools.find((t) => t.name === "count");
  check("tools/list: count's input schema keeps its bounds and descriptions",
        count?.inputSchema?.properties?.to?.maximum === 100 &&
        typeof count.inputSchema.properties.delay_ms?.description === "string", JSON.stringify(count));
  const sum = await client.callTool({ name: "add", arguments: { a: 2, b: 3.5 } });
  check("tools/call add: structured", sum.structuredContent?.sum === 5.5, JSON.stringify(sum));
  check("tools/call add: the structured result also as text (tools spec, Structured Content)",
        sum.content?.[0]?.type === "text" && JSON.parse(sum.content[0].text).sum === 5.5);
  const outOfRange = await client.callTool({ name: "count", arguments: { to: 101 } });
  check("tools/call with arguments outside the schema: a tool error that says where",
        outOfRange.isError === true && outOfRange.content?.[0]?.text?.includes("arguments.to"),
        JSON.stringify(outOfRange));
  const echo = await client.callTool({ name: "echo", arguments: { text: "héllo\n\"x\"" } });
  check("tools/call echo", echo.content?.[0]?.text === "héllo\n\"x\"", JSON.stringify(echo));
  const bad = await client.callTool({ name: "echo", arguments: { text: 5 } });
  check("tools/call with bad arguments: a tool error", bad.isError === true, JSON.stringify(bad));
  // Progress as the SDK's transport parsed it (every message passes its JSON-RPC schema
  // there). The SDK's onprogress callback is not the check: it runs its notification handlers
  // a microtask late, after a response read in the same chunk has already removed the call's
  // progress handler, so it sees only the notifications that came in earlier reads.
  const wire = [];
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if (message.method === "notifications/progress") wire.push(message.params);
    if (message.method === "notifications/tasks/status") statuses.push(message.params);
    deliver(message, extra);
  };
  const delivered = [];
  const counted = await client.callTool({ name: "count", arguments: { to: 3 } }, undefined,
                                        { onprogress: (p) => delivered.push(`${p.progress}/${p.total}`) });
  check("tools/call count", counted.content?.[0]?.text === "3", JSON.stringify(counted));
  const steps = wire.map((p) => `${p.progress}/${p.total}`);
  check("notifications/progress from the server, in order, with the call's token",
        steps.join(",") === "1/3,2/3,3/3" && new Set(wire.map((p) => p.progressToken)).size === 1,
        JSON.stringify(wire));
  check("the SDK's onprogress saw a prefix of them", steps.slice(0, delivered.length).join(",") ===
        delivered.join(","), JSON.stringify(delivered));
  check("notifications/message from the server at the level set",
        logs.some((l) => l.level === "info" && l.data === "counted to 3"), JSON.stringify(logs));
  await cancellation();
  await tasks(caps);
  const pong = await client.callTool({ name: "ping_client" });
  check("ping from the server, answered by the SDK client", pong.content?.[0]?.text === "pong",
        JSON.stringify(pong));
  const summary = await client.callTool({ name: "summarize", arguments: { text: "a long text" } });
  check("sampling/createMessage from the server, answered by the SDK client's model",
        summary.content?.[0]?.text === "summary: a short summary", JSON.stringify(summary));
  check("the sampling request as the server wrote it (the SDK validated it)",
        samplings.length === 1 && samplings[0].maxTokens === 100 &&
        samplings[0].messages?.[0]?.content?.text === "Summarize: a long text", JSON.stringify(samplings));
  await rejects("tools/call of an unknown tool: -32602", client.callTool({ name: "nope" }), -32602);
  // A tool added and removed while the server runs: the client hears of each change.
  let listChanges = 0;
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => { listChanges += 1; });
  const added = await client.callTool({ name: "toggle_shout" });
  await client.ping();  // the notification, sent before the call's answer, has been read by now
  const withShout = (await client.listTools()).tools.map((t) => t.name);
  check("a tool added at run time: notifications/tools/list_changed, then in tools/list",
        added.content?.[0]?.text === "shout added" && listChanges === 1 && withShout.includes("shout"),
        JSON.stringify({ added, listChanges, withShout }));
  const shouted = await client.callTool({ name: "shout", arguments: { text: "quiet please" } });
  check("the added tool is called", shouted.content?.[0]?.text === "QUIET PLEASE", JSON.stringify(shouted));
  await client.callTool({ name: "toggle_shout" });
  await client.ping();
  const withoutShout = (await client.listTools()).tools.map((t) => t.name);
  check("a tool removed at run time: notified, gone from tools/list, and unknown to tools/call",
        listChanges === 2 && !withoutShout.includes("shout"), JSON.stringify({ listChanges, withoutShout }));
  await rejects("tools/call of the removed tool: -32602",
                client.callTool({ name: "shout", arguments: { text: "x" } }), -32602);

  const { resources } = await client.listResources();
  check("resources/list", resources.length === 1 && resources[0].uri === "sample://readme");
  for (const r of resources) {
    const read = await client.readResource({ uri: r.uri });
    check(`resources/read ${r.uri}`, read.contents?.[0]?.uri === r.uri &&
          typeof read.contents[0].text === "string" && read.contents[0].text.length > 0);
  }
  await rejects("resources/read of an unknown uri: -32002", client.readResource({ uri: "sample://none" }), -32002);
  const { resourceTemplates } = await client.listResourceTemplates();
  check("resources/templates/list", resourceTemplates.length === 1 &&
        resourceTemplates[0].uriTemplate === "sample://echo/{text}", JSON.stringify(resourceTemplates));
  // The URI as the SDK's own RFC 6570 expansion makes it from the listed template.
  const echoUri = new UriTemplate(resourceTemplates[0].uriTemplate).expand({ text: "héllo there (1/2)" });
  const echoed = await client.readResource({ uri: echoUri });
  check(`resources/read of the template (${echoUri}): the variable, percent-decoded`,
        echoed.contents?.[0]?.text === "héllo there (1/2)", JSON.stringify(echoed));
  await rejects("resources/read of a uri the template does not match: -32002",
                client.readResource({ uri: "sample://echo/a/b" }), -32002);
  // A subscription hears of a change (the tool note adds one); after unsubscribing it does not.
  const updates = [];
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => updates.push(n.params.uri));
  check("resources/subscribe", JSON.stringify(await client.subscribeResource({ uri: "sample://readme" })) === "{}");
  await client.callTool({ name: "note", arguments: { text: "first" } });
  await client.ping();  // the update, sent before the call's answer, has been read by now
  check("notifications/resources/updated after a change to a subscribed resource",
        updates.join(",") === "sample://readme", JSON.stringify(updates));
  const noted = await client.readResource({ uri: "sample://readme" });
  check("the change is in the resource", noted.contents?.[0]?.text?.includes("note: first"));
  check("resources/unsubscribe", JSON.stringify(await client.unsubscribeResource({ uri: "sample://readme" })) === "{}");
  await client.callTool({ name: "note", arguments: { text: "second" } });
  await client.ping();
  check("no update after unsubscribing", updates.length === 1, JSON.stringify(updates));
  await rejects("resources/subscribe to an unknown uri: -32002",
                client.subscribeResource({ uri: "sample://none" }), -32002);

  const { prompts } = await client.listPrompts();
  check("prompts/list", prompts.map((p) => p.name).join(",") === "greet");
  const greet = await client.getPrompt({ name: "greet", arguments: { name: "Ada" } });
  check("prompts/get greet", greet.messages?.[0]?.role === "user" &&
        greet.messages[0].content?.text?.includes("Ada"), JSON.stringify(greet));
  await rejects("prompts/get without its argument: -32602", client.getPrompt({ name: "greet" }), -32602);
  // Completions: the server's functions per prompt argument and template variable.
  check("initialize: completions declared", !!caps.completions, JSON.stringify(caps));
  const names = await client.complete({ ref: { type: "ref/prompt", name: "greet" },
                                        argument: { name: "name", value: "A" } });
  check("completion/complete of a prompt's argument", JSON.stringify(names.completion?.values) ===
        JSON.stringify(["Ada", "Alan"]), JSON.stringify(names));
  const words = await client.complete({ ref: { type: "ref/resource", uri: "sample://echo/{text}" },
                                        argument: { name: "text", value: "hel" } });
  check("completion/complete of a template's variable", JSON.stringify(words.completion?.values) ===
        JSON.stringify(["hello", "help"]), JSON.stringify(words));
  await rejects("completion/complete of an unknown prompt: -32602",
                client.complete({ ref: { type: "ref/prompt", name: "nope" },
                                  argument: { name: "name", value: "" } }), -32602);
  await rejects("an unsupported method: -32601",
                client.request({ method: "sample/unknown", params: {} }, CompleteResultSchema), -32601);

  await client.close();
  check("close (the SDK closes stdin and waits for the exit)", true);
} catch (e) {
  check("session", false, `${e?.stack ?? e}\nserver stderr: ${stderr.join("")}`);
}
clearTimeout(timer);
finish();
