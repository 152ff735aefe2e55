#!/usr/bin/env node
// interop.mcp_reference_servers: the sample MCP client (examples/mcp/client, rpckit's host role
// on the generated client surface) drives official MCP reference servers from npm (pinned in
// package.json), each a real process on real pipes:
//
// - @modelcontextprotocol/server-everything, through every tool, prompt and resource it lists:
//   the client answers its sampling, elicitation and roots requests from the command line's
//   policy and asks for progress on every call (the runtime adds the call's id as the token);
//   a second run gives each call a deadline shorter than the long operation takes, and the
//   operation's progress reports restart it (--max-total-ms), so the call is answered;
//   a third run declares tasks (--tasks): the server's async tools send sampling and
//   elicitation as tasks, which the client runs and the server polls (tasks/get, tasks/result);
// - @modelcontextprotocol/server-memory on a temporary file: entities created, observed,
//   searched and read back, and the file on disk checked;
// - a server made with the official SDK's Server (mcp_sdk_server.mjs): a tool call the client
//   gives up (--cancel-after-ms) reaches the SDK as notifications/cancelled, which aborts the
//   tool with the client's reason, and the connection serves on.
//
// Each run's JSON-lines transcript (the client's --transcript) is checked: what was called,
// what came back, that every request got its answer, and that the client found no violation.
//
//   node tests/interop/mcp_reference_servers.mjs <mcp-sample-client>
//
// Prints one line per check and "N passed, M failed"; exits 1 on a failure, 77 when the
// servers are not installed (`npm ci` at the repo root).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { argument, check, finish, pinned } from "./checks.mjs";

const client = argument("mcp_reference_servers.mjs <mcp-sample-client>");
const script = "mcp_reference_servers";
const everything = join(pinned("@modelcontextprotocol/server-everything", script), "dist", "index.js");
const memory = join(pinned("@modelcontextprotocol/server-memory", script), "dist", "index.js");

const dir = mkdtempSync(join(tmpdir(), "mcp-reference-"));

// Runs the client on `server` with `args`; returns its exit status, output and transcript.
function run(name, server, args, env = {}) {
  const transcript = join(dir, `${name}.jsonl`);
  const out = spawnSync(client, ["--transcript", transcript, ...args, "--", process.execPath, ...server], {
    encoding: "utf8", timeout: 120000, env: { ...process.env, ...env },
  });
  const lines = readFileSync(transcript, "utf8").split("\n").filter((l) => l).map((l) => JSON.parse(l));
  const frames = lines.filter((l) => l.type === "frame");
  const sent = frames.filter((f) => f.direction === "client_to_server").map((f) => f.message);
  const received = frames.filter((f) => f.direction === "server_to_client").map((f) => f.message);
  // The answer to each of our requests, by id.
  const answers = new Map(received.filter((m) => m.method === undefined).map((m) => [m.id, m]));
  const requests = sent.filter((m) => m.method !== undefined && m.id !== undefined);
  const answerTo = (req) => answers.get(req.id);
  // The client's answers to the server's requests, by the request.
  const ours = new Map(sent.filter((m) => m.method === undefined).map((m) => [m.id, m]));
  const serverRequests = received.filter((m) => m.method !== undefined && m.id !== undefined);
  return { ...out, lines, sent, received, requests, answerTo, ours, serverRequests,
           host: lines.filter((l) => l.type === "host").map((l) => l.text) };
}

// `sigterm`: the server may outlive the end of its stdin until the stop sequence's SIGTERM
// (MCP's stdio shutdown allows it): server-everything keeps the timers its toggle tools start.
function common(name, r, { sigterm = false } = {}) {
  check(`${name}: the client exits 0 (no violation)`, r.status === 0,
        `status ${r.status} ${r.signal ?? ""}\n${r.stderr}\n${r.stdout.slice(-3000)}`);
  check(`${name}: the handshake: initialize answered with 2025-11-25`,
        r.answerTo(r.requests.find((m) => m.method === "initialize") ?? {})?.result?.protocolVersion === "2025-11-25");
  // A request the client cancelled may go unanswered (basic/utilities/cancellation).
  const cancelled = new Set(r.sent.filter((m) => m.method === "notifications/cancelled").map((m) => m.params?.requestId));
  const unanswered = r.requests.filter((m) => !r.answerTo(m) && !cancelled.has(m.id));
  check(`${name}: every request of the client answered (${r.requests.length})`, unanswered.length === 0,
        JSON.stringify(unanswered.map((m) => m.method)));
  const stopped = r.lines.find((l) => l.type === "lifecycle" && l.event === "stopped");
  const closed = stopped?.cause === "requested" && stopped?.detail === "exit code 0";
  const terminated = stopped?.cause === "exit_timeout" && /SIGTERM/.test(stopped?.detail ?? "");
  check(`${name}: stopped by the client: stdin closed${sigterm ? ", then SIGTERM if need be" : ", exit code 0"}`,
        closed || (sigterm && terminated), JSON.stringify(stopped));
}

// ---- server-everything ---------------------------------------------------------------------
{
  const reply = "a sampled answer from the rpckit policy";
  const r = run("everything", [everything, "stdio"], [
    "--sampling", `reply:${reply}`, "--elicitation", "accept", "--roots", "file:///tmp/rpckit-roots",
    "--args", 'trigger-long-running-operation={"duration":1,"steps":3}',
    "--args", 'gzip-file-as-resource={"name":"hello.txt.gz","data":"data:text/plain;base64,aGVsbG8="}',
    "--prompt-args", 'resource-prompt={"resourceType":"Text","resourceId":"1"}',
    "--max-reads", "100",
  ]);
  common("everything", r, { sigterm: true });
  const listed = r.answerTo(r.requests.find((m) => m.method === "tools/list") ?? {})?.result?.tools ?? [];
  const calls = r.requests.filter((m) => m.method === "tools/call");
  check(`everything: tools/list (${listed.length} tools)`, listed.length >= 10, listed.map((t) => t.name));
  const uncalled = listed.filter((t) => !calls.some((c) => c.params.name === t.name));
  check("everything: every listed tool called", uncalled.length === 0, uncalled.map((t) => t.name));
  const result = (tool) => r.answerTo(calls.find((c) => c.params.name === tool) ?? {});
  const text = (tool) => (result(tool)?.result?.content ?? []).map((b) => b.text ?? "").join("");
  check("everything: echo", text("echo").startsWith("Echo: "), JSON.stringify(result("echo")));
  check("everything: get-structured-content has structuredContent",
        typeof result("get-structured-content")?.result?.structuredContent === "object");
  check("everything: get-tiny-image returns an image",
        (result("get-tiny-image")?.result?.content ?? []).some((b) => b.type === "image" && b.data?.length > 0));
  const longCall = calls.find((c) => c.params.name === "trigger-long-running-operation");
  const progress = r.received.filter((m) => m.method === "notifications/progress" &&
                                       m.params?.progressToken === longCall?.params?._meta?.progressToken);
  check(`everything: the long operation reports progress under the call's token (${progress.length})`,
        progress.length >= 2 && result("trigger-long-running-operation")?.result?.isError !== true,
        JSON.stringify(progress.slice(0, 3)));
  const asked = (method) => r.serverRequests.filter((m) => m.method === method);
  const sampling = asked("sampling/createMessage");
  check("everything: sampling/createMessage answered from the policy",
        sampling.length >= 1 && sampling.every((q) => r.ours.get(q.id)?.result?.content?.text === reply),
        JSON.stringify(sampling.map((q) => r.ours.get(q.id))));
  check("everything: the sampled text reaches the tool's result", text("trigger-sampling-request").includes(reply),
        JSON.stringify(result("trigger-sampling-request")));
  const elicit = asked("elicitation/create");
  check("everything: elicitation/create answered accept, with content for the form",
        elicit.length >= 1 && elicit.every((q) => r.ours.get(q.id)?.result?.action === "accept"),
        JSON.stringify(elicit.map((q) => r.ours.get(q.id))));
  const roots = asked("roots/list");
  check("everything: roots/list answered with the policy's roots",
        roots.length >= 1 && roots.every((q) => r.ours.get(q.id)?.result?.roots?.[0]?.uri === "file:///tmp/rpckit-roots"),
        JSON.stringify(roots.map((q) => r.ours.get(q.id))));
  const prompts = r.answerTo(r.requests.find((m) => m.method === "prompts/list") ?? {})?.result?.prompts ?? [];
  const got = r.requests.filter((m) => m.method === "prompts/get");
  check(`everything: every prompt got (${prompts.length})`, prompts.length >= 1 &&
        prompts.every((p) => got.some((g) => g.params.name === p.name)));
  check("everything: args-prompt answered with messages",
        (r.answerTo(got.find((g) => g.params.name === "simple-prompt") ?? {})?.result?.messages ?? []).length >= 1);
  const reads = r.requests.filter((m) => m.method === "resources/read");
  const listedResources = r.requests.filter((m) => m.method === "resources/list")
      .flatMap((m) => r.answerTo(m)?.result?.resources ?? []);
  check(`everything: every listed resource read (${listedResources.length})`, listedResources.length >= 1 &&
        listedResources.every((res) => reads.some((q) => q.params.uri === res.uri && r.answerTo(q)?.result)));
  check("everything: resources/templates/list", r.requests.some((m) => m.method === "resources/templates/list" &&
        (r.answerTo(m)?.result?.resourceTemplates ?? []).length >= 1));
  check("everything: a resource subscribed and unsubscribed",
        ["resources/subscribe", "resources/unsubscribe"].every((method) =>
          r.requests.some((m) => m.method === method && r.answerTo(m)?.result)));
  check("everything: completion/complete answered",
        r.requests.some((m) => m.method === "completion/complete" && r.answerTo(m)?.result?.completion));
}

// ---- server-everything: the client runs the server's requests as tasks ------------------------
// With --tasks the client declares tasks.requests.sampling.createMessage and
// elicitation.create, and server-everything offers its two async tools: each sends its
// request with `task`, takes the client's CreateTaskResult, polls tasks/get until the task is
// completed and reads the answer with tasks/result (basic/utilities/tasks, the client as
// receiver: rpckit::mcp::TaskStore behind the generated *_with_task handlers).
{
  const reply = "a sampled answer, as a task";
  const r = run("everything-tasks", [everything, "stdio"], [
    "--sampling", `reply:${reply}`, "--elicitation", "accept", "--tasks", "--max-reads", "0",
    "--call", 'trigger-sampling-request-async={"prompt":"hello"}',
    "--call", "trigger-elicitation-request-async",
  ]);
  common("everything-tasks", r, { sigterm: true });
  const initialize = r.requests.find((m) => m.method === "initialize");
  check("everything-tasks: the client declares tasks for sampling and elicitation",
        initialize?.params?.capabilities?.tasks?.requests?.sampling?.createMessage !== undefined &&
        initialize?.params?.capabilities?.tasks?.requests?.elicitation?.create !== undefined,
        JSON.stringify(initialize?.params?.capabilities));
  const calls = r.requests.filter((m) => m.method === "tools/call");
  const text = (tool) => (r.answerTo(calls.find((c) => c.params.name === tool) ?? {})?.result?.content ?? [])
      .map((b) => b.text ?? "").join("");
  for (const method of ["sampling/createMessage", "elicitation/create"]) {
    const asked = r.serverRequests.filter((m) => m.method === method);
    check(`everything-tasks: ${method} sent as a task, answered with a working CreateTaskResult`,
          asked.length === 1 && asked[0].params?.task !== undefined &&
          r.ours.get(asked[0].id)?.result?.task?.status === "working",
          JSON.stringify(asked.map((q) => [q.params?.task, r.ours.get(q.id)])));
  }
  const polled = r.serverRequests.filter((m) => m.method === "tasks/get");
  check(`everything-tasks: the server's tasks/get answered (${polled.length})`,
        polled.length >= 2 && polled.every((q) => typeof r.ours.get(q.id)?.result?.status === "string"),
        JSON.stringify(polled.map((q) => r.ours.get(q.id))));
  const results = r.serverRequests.filter((m) => m.method === "tasks/result");
  check("everything-tasks: tasks/result gives each answer, naming its task",
        results.length === 2 && results.every((q) => {
          const answer = r.ours.get(q.id)?.result;
          return answer?._meta?.["io.modelcontextprotocol/related-task"]?.taskId === q.params?.taskId;
        }), JSON.stringify(results.map((q) => r.ours.get(q.id))));
  check("everything-tasks: the async sampling tool completes with the policy's text",
        text("trigger-sampling-request-async").startsWith("[COMPLETED]") &&
        text("trigger-sampling-request-async").includes(reply), text("trigger-sampling-request-async"));
  check("everything-tasks: the async elicitation tool completes with the accepted form",
        text("trigger-elicitation-request-async").startsWith("[COMPLETED]"),
        text("trigger-elicitation-request-async"));
}

// ---- server-everything: progress restarts a call's deadline ----------------------------------
{
  const r = run("everything-progress", [everything, "stdio"], [
    "--timeout-ms", "2500", "--max-total-ms", "60000", "--max-reads", "0",
    "--call", 'trigger-long-running-operation={"duration":5,"steps":10}',
  ]);
  common("everything-progress", r, { sigterm: true });
  const call = r.requests.find((m) => m.method === "tools/call");
  const answer = r.answerTo(call ?? {});
  check("everything-progress: the call's progress token is its own id",
        call !== undefined && call.params?._meta?.progressToken === call.id, JSON.stringify(call));
  const reports = r.received.filter((m) => m.method === "notifications/progress" &&
                                      m.params?.progressToken === call?.id);
  check(`everything-progress: the server reports progress under it (${reports.length})`, reports.length >= 5);
  const at = (message) => r.lines.find((l) => l.type === "frame" && l.message === message)?.t;
  const waited = (at(answer) ?? 0) - (at(call) ?? 0);
  check(`everything-progress: answered after ${waited.toFixed(1)} s though the deadline is 2.5 s`,
        answer?.result !== undefined && answer.result.isError !== true && waited > 2.5,
        JSON.stringify(answer));
  check("everything-progress: the client tells each report of the call",
        r.host.filter((t) => t.startsWith("progress of tools/call trigger-long-running-operation: ")).length ===
          reports.length, JSON.stringify(r.host));
}

// ---- server-memory -------------------------------------------------------------------------
{
  const file = join(dir, "knowledge-graph.jsonl");
  const r = run("memory", [memory], [
    "--call", 'create_entities={"entities":[{"name":"rpckit","entityType":"project","observations":["speaks MCP"]}]}',
    "--call", 'add_observations={"observations":[{"entityName":"rpckit","contents":["has a C++ client"]}]}',
    "--call", 'create_entities={"entities":[{"name":"MCP","entityType":"protocol","observations":[]}]}',
    "--call", 'create_relations={"relations":[{"from":"rpckit","to":"MCP","relationType":"implements"}]}',
    "--call", 'search_nodes={"query":"C++"}',
    "--call", 'open_nodes={"names":["rpckit"]}',
    "--call", "read_graph",
  ], { MEMORY_FILE_PATH: file });
  common("memory", r);
  const calls = r.requests.filter((m) => m.method === "tools/call");
  check("memory: the seven calls made, in order", calls.map((c) => c.params.name).join(",") ===
        "create_entities,add_observations,create_entities,create_relations,search_nodes,open_nodes,read_graph");
  const structured = (name) => r.answerTo(calls.findLast((c) => c.params.name === name) ?? {})?.result?.structuredContent;
  const found = structured("search_nodes")?.entities ?? [];
  check("memory: search_nodes finds the entity by its new observation",
        found.length === 1 && found[0].name === "rpckit", JSON.stringify(structured("search_nodes")));
  const graph = structured("read_graph");
  check("memory: read_graph returns both entities and the relation",
        graph?.entities?.length === 2 && graph?.relations?.[0]?.relationType === "implements", JSON.stringify(graph));
  let onDisk = [];
  try {
    onDisk = readFileSync(file, "utf8").split("\n").filter((l) => l).map((l) => JSON.parse(l));
  } catch (e) {
    onDisk = [String(e)];
  }
  const entity = onDisk.find((e) => e.name === "rpckit");
  check("memory: the file on disk holds the entity with both observations",
        entity?.observations?.join("|") === "speaks MCP|has a C++ client", JSON.stringify(onDisk));
}

// ---- a server on the official SDK: the client's cancel --------------------------------------
{
  const report = join(dir, "sdk-server-tools.jsonl");  // the transcript is sdk-server.jsonl
  const r = run("sdk-server", [join(import.meta.dirname, "mcp_sdk_server.mjs")], [
    "--cancel-after-ms", "2000", "--call", 'wait={"ms":60000}', "--call", 'wait={"ms":10}',
  ], { MCP_SDK_SERVER_REPORT: report });
  common("sdk-server", r);
  const calls = r.requests.filter((m) => m.method === "tools/call");
  const cancels = r.sent.filter((m) => m.method === "notifications/cancelled");
  check("sdk-server: the long call cancelled by id, with the client's reason",
        calls.length === 2 && cancels.length === 1 && cancels[0].params.requestId === calls[0].id &&
        cancels[0].params.reason === "stopped by the user after 2000 ms", JSON.stringify(cancels));
  check("sdk-server: the SDK does not answer the cancelled call", !r.answerTo(calls[0] ?? {}));
  check("sdk-server: the client reports the call cancelled",
        r.host.some((t) => t.includes("tools/call wait") && t.includes("cancelled: \"tools/call\" given up")),
        JSON.stringify(r.host));
  let tools = [];
  try {
    tools = readFileSync(report, "utf8").split("\n").filter((l) => l).map((l) => JSON.parse(l));
  } catch (e) {
    tools = [String(e)];
  }
  check("sdk-server: the SDK aborted the tool with the client's reason",
        tools.some((t) => t.ms === 60000 && t.aborted && t.reason === "stopped by the user after 2000 ms"),
        JSON.stringify(tools));
  check("sdk-server: the next call is answered", r.answerTo(calls[1] ?? {})?.result?.content?.[0]?.text === "waited 10 ms",
        JSON.stringify(r.answerTo(calls[1] ?? {})));
}

rmSync(dir, { recursive: true, force: true });
finish();
