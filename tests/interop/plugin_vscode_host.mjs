#!/usr/bin/env node
// An independent StreamNook host built on vscode-jsonrpc (the JSON-RPC library behind VS
// Code's language clients) drives the live-alerts plugin through its whole lifecycle over
// Content-Length framing: proof that rpckit's plugin role talks to a peer it was not written
// against.
//
//   node tests/interop/plugin_vscode_host.mjs <path/to/live-alerts>
//
// Prints one line per check and ends with "N passed, M failed"; exits non-zero on any failure
// (77 = skipped: vscode-jsonrpc is not installed; run `npm ci` at the project root).

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const WAIT_MS = 5000;       // bound on each awaited step
const WATCHDOG_MS = 25000;  // bound on the whole run

let rpc;
try {
  rpc = createRequire(join(ROOT, "package.json"))("vscode-jsonrpc/node");
} catch (error) {
  console.log(`SKIP: vscode-jsonrpc is not installed (run npm ci at the project root): ${error.message}`);
  process.exit(77);
}

const pluginPath = process.argv[2];
if (!pluginPath) {
  console.log("usage: plugin_vscode_host.mjs <path/to/live-alerts>");
  process.exit(2);
}

// ------------------------------------------------------------------------------- checks
let passed = 0;
let failed = 0;
function check(name, ok, detail = "") {
  if (ok) {
    passed++;
    console.log(`PASS ${name}`);
  } else {
    failed++;
    console.log(`FAIL ${name}${detail ? ": " + detail : ""}`);
  }
  return ok;
}
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// --------------------------------------------------------------------------- the plugin
const dataDir = mkdtempSync(join(tmpdir(), "rpckit-interop-"));
const child = spawn(resolve(pluginPath), [], {
  cwd: dirname(dirname(resolve(pluginPath))),  // the plugin's install directory (spec 1)
  stdio: ["pipe", "pipe", "pipe"],
});
let stderr = "";
child.stderr.setEncoding("utf8");
child.stderr.on("data", (text) => { stderr += text; });
const exited = new Promise((resolveExit) => {
  child.on("exit", (code, signal) => resolveExit({ code, signal }));
});
child.on("error", (error) => {
  check("spawn the plugin", false, error.message);
  finish();
});

const watchdog = setTimeout(() => {
  check("whole run within the watchdog", false, `${WATCHDOG_MS} ms elapsed`);
  child.kill("SIGKILL");
  finish();
}, WATCHDOG_MS);

const connection = rpc.createMessageConnection(
  new rpc.StreamMessageReader(child.stdout),
  new rpc.StreamMessageWriter(child.stdin));

// Everything the plugin sends, in order, and waiters woken on each arrival.
const received = [];  // {kind: "request"|"notification", method, params}
const waiters = [];
function record(kind, method, params) {
  received.push({ kind, method, params });
  for (const waiter of [...waiters]) waiter();
}
function waitFor(description, predicate, timeoutMs = WAIT_MS) {
  return new Promise((resolveWait) => {
    const found = () => received.find(predicate);
    const hit = found();
    if (hit) return resolveWait(hit);
    const timer = setTimeout(() => {
      waiters.splice(waiters.indexOf(wake), 1);
      resolveWait(undefined);
    }, timeoutMs);
    function wake() {
      const match = found();
      if (!match) return;
      clearTimeout(timer);
      waiters.splice(waiters.indexOf(wake), 1);
      resolveWait(match);
    }
    waiters.push(wake);
  });
}
function withTimeout(promise, what) {
  return Promise.race([
    promise,
    new Promise((_, reject) => setTimeout(() => reject(new Error(`${what}: no answer within ${WAIT_MS} ms`)), WAIT_MS)),
  ]);
}

const channel = (id) => ({
  channel_id: id, login: `login${id}`, display_name: `Streamer${id}`, game_id: "g-chess",
  game_name: "Chess", started_at: "2024-05-01T12:00:00Z", viewer_count: 42, favorite: true,
});

// The host methods, as a host with the full grant answers them.
connection.onRequest("register_panel", (params) => {
  record("request", "register_panel", params);
  return {};
});
connection.onRequest("get_panel_values", (params) => {
  record("request", "get_panel_values", params);
  return { values: { quiet: false } };
});
connection.onRequest("get_followed_live", (params) => {
  record("request", "get_followed_live", params);
  return { channels: [channel("1")] };
});
connection.onRequest("notify", (params) => {
  record("request", "notify", params);
  return {};
});
connection.onRequest((method, params) => {  // anything else: not a host method we offer
  record("request", method, params);
  return new rpc.ResponseError(-32601, `unknown host method ${method}`);
});
connection.onNotification("log", (params) => record("notification", "log", params));
connection.onNotification("set_status", (params) => record("notification", "set_status", params));
connection.onNotification((method, params) => record("notification", method, params));
connection.onError(([error]) => check("no transport error", false, String(error)));
connection.listen();

// ----------------------------------------------------------------------------- the run
const granted = {
  events: ["on_followed_live", "on_panel_change"],
  host_methods: ["get_followed_live", "notify", "log"],
  credentials: [],
  ui: ["panel"],
};

async function main() {
  const init = await withTimeout(connection.sendRequest("initialize", {
    protocol_version: 1, host_version: "7.8.6", plugin_id: "dev.rpckit.live-alerts", granted,
    data_dir: join(dataDir, "data"), log_dir: join(dataDir, "log"),
  }), "initialize");
  check("initialize: plugin_version 1.0.0", init?.plugin_version === "1.0.0", JSON.stringify(init));
  check("initialize: hooks within granted.events",
        Array.isArray(init?.hooks) && init.hooks.every((h) => granted.events.includes(h)),
        JSON.stringify(init?.hooks));
  check("initialize: hooks are the handled events",
        same(init?.hooks, ["on_followed_live", "on_panel_change"]), JSON.stringify(init?.hooks));

  await connection.sendNotification("initialized", {});
  const panel = await waitFor("register_panel", (m) => m.method === "register_panel");
  check("register_panel requested with the settings schema",
        panel?.params?.schema?.title === "Live alerts", JSON.stringify(panel?.params));
  check("get_panel_values requested", !!(await waitFor("get_panel_values", (m) => m.method === "get_panel_values")));
  check("get_followed_live requested", !!(await waitFor("get_followed_live", (m) => m.method === "get_followed_live")));
  const started = await waitFor("started log", (m) => m.method === "log" && m.params?.message?.startsWith("started"));
  check("log notification: started with 1 live channel",
        started?.params?.message === "started; 1 followed channels live", JSON.stringify(started?.params));
  check("start-up sent no notify (first run is a baseline)", !received.some((m) => m.method === "notify"));

  await connection.sendNotification("on_followed_live", { channels: [channel("1"), channel("2")] });
  const alert = await waitFor("notify", (m) => m.method === "notify");
  check("on_followed_live with a new channel -> notify request",
        alert?.params?.message === "Streamer2 is live playing Chess", JSON.stringify(alert?.params));
  const status = await waitFor("set_status", (m) => m.method === "set_status");
  check("set_status notification with the live count",
        same(status?.params, { slot: "live-alerts.live-count", value: 2 }), JSON.stringify(status?.params));

  const pong = await withTimeout(connection.sendRequest("ping", {}), "ping");
  check("ping -> {}", same(pong, {}), JSON.stringify(pong));

  const action = await withTimeout(connection.sendRequest("invoke_action", { action: "live-alerts.test", args: {} }), "invoke_action");
  check("invoke_action live-alerts.test -> {ok: true}", same(action, { ok: true }), JSON.stringify(action));
  const test = await waitFor("test notify", (m) => m.method === "notify" && m.params?.message === "Test alert from Live alerts");
  check("invoke_action live-alerts.test -> a notify request", !!test);

  try {
    const unknown = await withTimeout(connection.sendRequest("invoke_action", { action: "nope.nothing", args: {} }), "invoke_action");
    check("invoke_action of an unknown action -> -32601", false, `result ${JSON.stringify(unknown)}`);
  } catch (error) {
    check("invoke_action of an unknown action -> -32601", error.code === -32601, `${error.code} ${error.message}`);
  }

  const bye = await withTimeout(connection.sendRequest("shutdown"), "shutdown");
  check("shutdown -> null", bye === null, JSON.stringify(bye));
  await connection.sendNotification("exit");
  const end = await Promise.race([exited, new Promise((r) => setTimeout(() => r(undefined), WAIT_MS))]);
  check("exit -> exit code 0", end?.code === 0, JSON.stringify(end));
  check("only host methods of the grant were called",
        received.every((m) => ["register_panel", "get_panel_values", "get_followed_live", "notify", "log", "set_status"].includes(m.method)),
        JSON.stringify(received.map((m) => m.method)));
  check("stderr reports no broken connection", !stderr.includes("broken connection"), stderr);
}

let finished = false;
function finish() {
  if (finished) return;
  finished = true;
  clearTimeout(watchdog);
  connection.dispose();
  if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed === 0 && passed > 0 ? 0 : 1);
}

main().catch((error) => check("lifecycle completed", false, error.stack ?? String(error))).finally(finish);
