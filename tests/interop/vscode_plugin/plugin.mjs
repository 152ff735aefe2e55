// vscode-probe: a StreamNook process plugin written with vscode-jsonrpc, the JSON-RPC library
// behind VS Code's language servers, which knows nothing of rpckit. It speaks the protocol
// over stdin/stdout (Content-Length framing), answers the whole lifecycle, hooks every
// granted event, calls every granted host method (plus a few calls whose errors are part of
// the contract) and writes down everything that happened as JSON:
//
//   $STREAMNOOK_PROBE_SUMMARY if set, else <data_dir>/summary.json (data_dir from initialize)
//
// The summary is rewritten (atomically) after every change, so a plugin that is killed still
// leaves its last state behind. stdout carries protocol frames only; diagnostics go to stderr
// (which the host appends to <log_dir>/plugin.log).
//
// Finding vscode-jsonrpc: $RPCKIT_SOURCE_DIR/node_modules first, then the node_modules of this
// file's ancestors (a run from the source tree), then NODE_PATH.

import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, isAbsolute, join } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));
const PLUGIN_VERSION = "1.0.0";
const STATUS_SLOT = "vscode-probe.state";
const ACTIONS = ["live-alerts.test"];
const LOG_MESSAGE = "vscode-probe: a log line, ünïcødé — 配信 🎉";
const SHUTDOWN_DRAIN_MS = 1000;  // bound on finishing in-flight calls before answering shutdown

function diag(text) {
  process.stderr.write(`vscode-probe[${process.pid}]: ${text}\n`);
}

function loadVscodeJsonrpc() {
  const anchors = [];
  if (process.env.RPCKIT_SOURCE_DIR) anchors.push(join(process.env.RPCKIT_SOURCE_DIR, "package.json"));
  anchors.push(join(HERE, "plugin.mjs"));  // ancestors' node_modules, then NODE_PATH
  const problems = [];
  for (const anchor of anchors) {
    try {
      return createRequire(anchor)("vscode-jsonrpc/node");
    } catch (error) {
      problems.push(`${anchor}: ${error.message.split("\n")[0]}`);
    }
  }
  diag(`cannot load vscode-jsonrpc (run npm ci at the project root): ${problems.join("; ")}`);
  process.exit(3);
}

const rpc = loadVscodeJsonrpc();
diag(`started (node ${process.version}, cwd ${process.cwd()})`);

// ------------------------------------------------------------------------------ summary
const summary = {
  plugin: "dev.rpckit.vscode-probe",
  pid: process.pid,
  cwd: process.cwd(),
  lifecycle: [],         // host->plugin lifecycle messages in arrival order: {method, params}
  initialize: null,      // InitializeParams as received
  hooks: [],             // what initialize answered
  pings: 0,
  events: [],            // every event in arrival order: {method, params}
  event_counts: {},      // method -> count
  calls: [],             // plugin->host messages in the order sent, with their outcome
  calls_done: false,     // the initial sequence after `initialized` has finished
  invoke_action: [],     // {params, answer}
  unexpected: [],        // messages outside the protocol, transport errors
  shutdown_answered: false,
  exit_received: false,
};
let summaryPath = process.env.STREAMNOOK_PROBE_SUMMARY || null;

function save() {
  if (!summaryPath) return;
  try {
    mkdirSync(dirname(summaryPath), { recursive: true });
    const tmp = `${summaryPath}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(summary, null, 2) + "\n");
    renameSync(tmp, summaryPath);
  } catch (error) {
    diag(`cannot write the summary to ${summaryPath}: ${error.message}`);
  }
}

// ---------------------------------------------------------------------------- connection
const connection = rpc.createMessageConnection(
  new rpc.StreamMessageReader(process.stdin),
  new rpc.StreamMessageWriter(process.stdout),
  { error: diag, warn: diag, info: () => {}, log: () => {} });

let granted = { events: [], host_methods: [], credentials: [], ui: [] };
const inFlight = new Set();

const errorOf = (error) => (error instanceof rpc.ResponseError
  ? { code: error.code, message: error.message, data: error.data ?? null }
  : { code: null, message: String(error?.message ?? error), data: null });

// A request to the host, recorded with its outcome. `label` tells the test which call it is.
function request(label, method, params) {
  const entry = { label, method, kind: "request", params, state: "pending" };
  summary.calls.push(entry);
  save();
  const promise = connection.sendRequest(method, params).then(
    (result) => { entry.state = "result"; entry.result = result; },
    (error) => { entry.state = "error"; entry.error = errorOf(error); });
  const tracked = promise.finally(() => { inFlight.delete(tracked); save(); });
  inFlight.add(tracked);
  return tracked;
}

function notification(label, method, params) {
  summary.calls.push({ label, method, kind: "notification", params, state: "sent" });
  save();
  return connection.sendNotification(method, params);
}

function skipped(label, method, why) {
  summary.calls.push({ label, method, kind: "skipped", state: "skipped", reason: why });
  save();
}

// Spec 8: a plugin never calls what it was not granted; it degrades instead.
const hasMethod = (m) => granted.host_methods.includes(m);
const hasUi = (u) => granted.ui.includes(u);
const hasCredential = (k) => granted.credentials.includes(k);

const PANEL = {
  title: "VS Code probe",
  sections: [{
    label: "General",
    description: "Settings of the interop probe",
    fields: [
      { key: "quiet", type: "toggle", label: "Quiet mode", default: false },
      { key: "min_viewers", type: "number", label: "Minimum viewers", min: 0, max: 100000, default: 0 },
    ],
  }],
};

// Every host method, in a fixed order, then the calls whose errors are part of the contract.
async function callEveryHostMethod() {
  if (hasMethod("get_followed_live")) await request("get_followed_live", "get_followed_live", {});
  else skipped("get_followed_live", "get_followed_live", "not granted");

  if (hasMethod("set_upstream")) {
    await request("set_upstream.unknown", "set_upstream",
                  { stream_id: "no-such-relay", playlist_url: "https://cdn.example.invalid/none/index.m3u8" });
    await request("set_upstream.relay-1", "set_upstream",
                  { stream_id: "relay-1", playlist_url: "https://cdn.example.invalid/relay-1/index.m3u8" });
  } else {
    skipped("set_upstream.unknown", "set_upstream", "not granted");
    skipped("set_upstream.relay-1", "set_upstream", "not granted");
  }

  if (hasCredential("twitch.android")) {
    await request("get_credential", "get_credential", { kind: "twitch.android" });
  } else {
    skipped("get_credential", "get_credential", "not granted");
  }

  if (hasMethod("notify")) {
    await request("notify", "notify", { level: "info", message: "vscode-probe: hello from vscode-jsonrpc" });
  } else {
    skipped("notify", "notify", "not granted");
  }

  if (hasMethod("log")) {
    // Non-ASCII text: Content-Length counts bytes, not characters (spec 1).
    notification("log", "log", { level: "debug", message: LOG_MESSAGE });
  } else {
    diag("log not granted: this line goes to stderr instead");
    skipped("log", "log", "not granted");
  }

  if (hasUi("panel")) {
    await request("register_panel", "register_panel", { schema: PANEL });
    await request("get_panel_values", "get_panel_values", {});
  } else {
    skipped("register_panel", "register_panel", "not granted");
    skipped("get_panel_values", "get_panel_values", "not granted");
  }

  notification("set_status", "set_status", { slot: STATUS_SLOT, value: { phase: "ready", by: "vscode-jsonrpc" } });

  // The contract's errors and edge cases.
  if (hasUi("panel")) {  // spec 9.7: a title over 60 characters is invalid_params
    await request("register_panel.title_too_long", "register_panel",
                  { schema: { ...PANEL, title: "x".repeat(61) } });
  }
  notification("set_status.undeclared", "set_status", { slot: "vscode-probe.undeclared", value: 1 });
  // Spec 8: a receiver copes with what it does not know; a notification never gets an answer.
  notification("unknown_notification", "vscode_probe.no_such_notification", { n: 1 });
  await request("unknown_method", "vscode_probe.no_such_method", {});
  if (hasMethod("notify")) {
    // One notification is spent above; of the burst of 3, two fit, the third is rate_limited.
    await Promise.all([1, 2, 3].map((n) => request(`notify.burst`, "notify",
                                                   { level: "warning", message: `vscode-probe: burst ${n}` })));
  }
  summary.calls_done = true;
  save();
}

// vscode-jsonrpc calls a request handler with (params, token), or with (token) alone when the
// request has no params; a notification handler with (params), or with nothing. Lifecycle
// entries record {method, params} or {method, params_absent: true}.
const requestParams = (args) => (args.length > 1 ? args[0] : undefined);
const notificationParams = (args) => (args.length > 0 ? args[0] : undefined);
function lifecycle(method, params) {
  summary.lifecycle.push(params === undefined ? { method, params_absent: true } : { method, params });
}

// ------------------------------------------------------------------------------ lifecycle
connection.onRequest("initialize", (...args) => {
  const params = requestParams(args);
  lifecycle("initialize", params);
  summary.initialize = params ?? null;
  if (!summaryPath && typeof params?.data_dir === "string" && isAbsolute(params.data_dir)) {
    summaryPath = join(params.data_dir, "summary.json");
  }
  if (params?.protocol_version !== 1) {
    save();
    return new rpc.ResponseError(-32600, `protocol_version ${params?.protocol_version} is not supported`,
                                 { name: "protocol_version_mismatch", retry_after_ms: null });
  }
  granted = {
    events: params.granted?.events ?? [],
    host_methods: params.granted?.host_methods ?? [],
    credentials: params.granted?.credentials ?? [],
    ui: params.granted?.ui ?? [],
  };
  summary.hooks = [...granted.events];
  save();
  return { plugin_version: PLUGIN_VERSION, hooks: summary.hooks };
});

connection.onNotification("initialized", (...args) => {
  lifecycle("initialized", notificationParams(args));
  save();
  callEveryHostMethod().catch((error) => {
    summary.unexpected.push({ what: "call sequence failed", error: String(error?.stack ?? error) });
    save();
  });
});

connection.onRequest("ping", (...args) => {
  lifecycle("ping", requestParams(args));
  summary.pings++;
  save();
  return {};
});

connection.onRequest("shutdown", async (...args) => {
  lifecycle("shutdown", requestParams(args));
  save();
  // Finish in-flight work first (bounded), then answer.
  await Promise.race([Promise.allSettled([...inFlight]),
                      new Promise((r) => setTimeout(r, SHUTDOWN_DRAIN_MS))]);
  summary.shutdown_answered = true;
  save();
  return null;
});

connection.onNotification("exit", (...args) => {
  lifecycle("exit", notificationParams(args));
  summary.exit_received = true;
  save();
  diag("exit received: exiting with code 0");
  process.exit(0);
});

connection.onRequest("invoke_action", (...args) => {
  const params = requestParams(args);  // spec 9.8: args may be absent
  const entry = { params: params ?? null };
  summary.invoke_action.push(entry);
  if (!ACTIONS.includes(params?.action)) {  // spec 9.8
    entry.answer = { error: -32601 };
    save();
    return new rpc.ResponseError(-32601, `action ${params?.action} is not handled`);
  }
  entry.answer = { ok: true };
  save();
  return { ok: true };
});

// ---------------------------------------------------------------------------------- events
const EVENTS = ["on_stream_start", "on_stream_stop", "on_channel_change", "on_watch_tick",
                "on_followed_live", "on_chat_message", "on_settings_change", "on_panel_change"];
for (const method of EVENTS) {
  connection.onNotification(method, (...args) => {
    const params = notificationParams(args);
    summary.events.push({ method, params: params ?? null });
    summary.event_counts[method] = (summary.event_counts[method] ?? 0) + 1;
    if (!summary.hooks.includes(method)) {
      summary.unexpected.push({ what: "event not hooked", method });
    }
    save();
    // The panel was saved: what does the host hand back now?
    if (method === "on_panel_change" && hasUi("panel")) {
      request("get_panel_values.after_change", "get_panel_values", {}).catch(() => {});
    }
    if (method === "on_followed_live") {
      notification("set_status.live_count", "set_status",
                   { slot: STATUS_SLOT, value: { live: params?.channels?.length ?? null } });
    }
  });
}

// -------------------------------------------------------------------- anything else
connection.onRequest((method, params) => {
  summary.unexpected.push({ what: "unknown request", method, params: params ?? null });
  save();
  return new rpc.ResponseError(-32601, `Method not found: ${method}`);
});
connection.onNotification((method, params) => {
  summary.unexpected.push({ what: "unknown notification", method, params: params ?? null });
  save();
});
connection.onError(([error]) => {
  summary.unexpected.push({ what: "transport error", error: String(error?.message ?? error) });
  save();
});
connection.onClose(() => {
  if (summary.exit_received) return;
  summary.unexpected.push({ what: "stdin closed before exit" });
  save();
  diag("stdin closed before exit: exiting with code 1");
  process.exit(1);
});

connection.listen();
