#!/usr/bin/env node
// interop.host_vscode_plugin: rpckit's host role (the demo host) runs a StreamNook plugin
// written with vscode-jsonrpc (tests/interop/vscode_plugin, an independent JSON-RPC
// implementation) through its scripted session, and we check both sides' records: the
// demo host's JSON-lines transcript (every frame, every lifecycle event) and the summary the
// plugin writes (what it received and the answers it got).
//
//   node tests/interop/host_vscode_plugin.mjs <streamnook-demo-host> <plugin dir> [time scale]
//
// Builds nothing. The plugin dir is copied to a temporary directory first. Prints one line per
// check and ends with "N passed, M failed"; exits 1 on any failure (or when it checked
// nothing), 77 when vscode-jsonrpc is not installed (run `npm ci` at the project root), 2 on
// bad usage.
//
// Time scale: the demo host multiplies every protocol timer by it. The handshake deadline
// (10 s x scale) must cover node's start-up on a loaded machine (more than 2 s seen on a
// 2-core CI machine with a browser test beside it), and the ping interval (30 s x scale) must
// fall inside the session (15.5 steps of 5 s x scale): 0.4 gives a 4 s handshake deadline,
// pings every 12 s (two in the session) and a run of about 32 s.

import { spawn } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const PLUGIN_ID = "dev.rpckit.vscode-probe";
const WATCHDOG_MS = 50000;  // bound on the demo host's run (SIGTERM, then SIGKILL 1 s later)

const [hostBinary, pluginSource, scaleArg] = process.argv.slice(2);
if (!hostBinary || !pluginSource) {
  console.log("usage: host_vscode_plugin.mjs <streamnook-demo-host> <plugin dir> [time scale]");
  process.exit(2);
}
const TIME_SCALE = Number(scaleArg ?? process.env.RPCKIT_INTEROP_TIME_SCALE ?? 0.4);
if (!(TIME_SCALE > 0)) {
  console.log(`bad time scale ${scaleArg}`);
  process.exit(2);
}
try {
  createRequire(join(ROOT, "package.json")).resolve("vscode-jsonrpc/node");
} catch (error) {
  console.log(`SKIP: vscode-jsonrpc is not installed (run npm ci at the project root): ${error.message.split("\n")[0]}`);
  process.exit(77);
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
// Deep equality with object keys in any order (the host's JSON library sorts them).
function same(a, b) {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && same(a[k], b[k]));
}
const show = (v) => {
  const text = JSON.stringify(v);
  return text === undefined ? "undefined" : text.length > 300 ? text.slice(0, 297) + "..." : text;
};
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

// ---------------------------------------------------------------------------------- run
const work = mkdtempSync(join(tmpdir(), "rpckit-host-vscode-"));
const pluginDir = join(work, "plugin");
const stateDir = join(work, "state");
const transcriptPath = join(work, "t.jsonl");
cpSync(resolve(pluginSource), pluginDir, { recursive: true });
chmodSync(join(pluginDir, "bin", "plugin"), 0o755);  // in case the copy lost the mode

const started = Date.now();
const host = spawn(resolve(hostBinary),
                   [pluginDir, "--time-scale", String(TIME_SCALE), "--transcript", transcriptPath,
                    "--state-dir", stateDir],
                   {
                     // stdin stays an open pipe: the demo host stops when its stdin closes.
                     stdio: ["pipe", "pipe", "pipe"],
                     env: { ...process.env, RPCKIT_SOURCE_DIR: ROOT, RPCKIT_NODE: process.execPath },
                   });
let hostOutput = "";
host.stdout.setEncoding("utf8");
host.stderr.setEncoding("utf8");
host.stdout.on("data", (t) => { hostOutput += t; });
host.stderr.on("data", (t) => { hostOutput += t; });
let watchdogFired = false;
const watchdog = setTimeout(() => {
  watchdogFired = true;
  host.kill("SIGTERM");
  setTimeout(() => host.kill("SIGKILL"), 1000).unref();
}, WATCHDOG_MS);
const { code, signal, spawnError } = await new Promise((done) => {
  host.on("error", (error) => done({ code: null, signal: null, spawnError: error }));
  host.on("exit", (c, s) => done({ code: c, signal: s }));
});
clearTimeout(watchdog);
host.stdin.destroy();

check("demo host runs the session and exits with code 0",
      !spawnError && code === 0 && !watchdogFired,
      spawnError ? spawnError.message
        : watchdogFired ? `still running after ${WATCHDOG_MS} ms (killed)`
          : `exit code ${code}${signal ? ", signal " + signal : ""}`);

// ----------------------------------------------------------------------- the records
let transcript = [];
{
  let bad = [];
  try {
    const lines = readFileSync(transcriptPath, "utf8").split("\n").filter((l) => l.trim() !== "");
    transcript = lines.map((line, i) => {
      try { return JSON.parse(line); } catch { bad.push(i + 1); return null; }
    }).filter((e) => e !== null);
  } catch (error) {
    bad = [error.message];
  }
  check("transcript: written, one JSON object per line", transcript.length > 0 && bad.length === 0,
        `${transcript.length} entries, bad lines: ${bad.join(", ")}`);
}
const dataDir = resolve(stateDir, "data", PLUGIN_ID);
const logDir = resolve(stateDir, "logs", PLUGIN_ID);
let summary = null;
try {
  summary = JSON.parse(readFileSync(join(dataDir, "summary.json"), "utf8"));
} catch (error) {
  summary = null;
  check("plugin summary written to <data_dir>/summary.json", false, error.message);
}
if (summary) check("plugin summary written to <data_dir>/summary.json", true);
summary ??= { lifecycle: [], events: [], calls: [], invoke_action: [], unexpected: [{ what: "no summary" }] };

const ours = transcript.filter((e) => e.plugin === undefined || e.plugin === PLUGIN_ID);
const frames = ours.filter((e) => e.type === "frame");
const toPlugin = frames.filter((f) => f.direction === "host_to_plugin").map((f) => f.message);
const fromPlugin = frames.filter((f) => f.direction === "plugin_to_host").map((f) => f.message);
const frameIndex = (m) => frames.findIndex((f) => f.message === m);
const isRequest = (m) => typeof m?.method === "string" && Object.hasOwn(m, "id");
const isNotification = (m) => typeof m?.method === "string" && !Object.hasOwn(m, "id");
const isResponse = (m) => typeof m === "object" && m !== null && m.method === undefined && Object.hasOwn(m, "id");
const responseTo = (list, id) => list.filter((m) => isResponse(m) && same(m.id, id));
const reports = ours.filter((e) => e.type === "report").map((e) => e.text);
const narration = ours.filter((e) => e.type === "host").map((e) => e.text);
const lifecycleEvents = ours.filter((e) => e.type === "lifecycle");

// The manifest requests everything; the demo host grants all of it by default.
const GRANTED = {
  events: ["on_stream_start", "on_stream_stop", "on_channel_change", "on_watch_tick",
           "on_followed_live", "on_chat_message", "on_settings_change", "on_panel_change"],
  host_methods: ["get_followed_live", "set_upstream", "notify", "log", "register_panel",
                 "get_panel_values"],
  credentials: ["twitch.android"],
  ui: ["panel"],
};
const sameSet = (a, b) => Array.isArray(a) && a.length === b.length && b.every((x) => a.includes(x));

// ------------------------------------------------------------------------ lifecycle
{
  const kinds = lifecycleEvents.map((e) => e.event);
  const last = lifecycleEvents.at(-1);
  check("lifecycle: starting, running, stopped and nothing else (no restart, not disabled)",
        same(kinds, ["starting", "running", "stopped"]), show(lifecycleEvents.map((e) => [e.event, e.cause, e.detail])));
  check("lifecycle: stopped (requested), plugin exit code 0",
        last?.event === "stopped" && last?.cause === "requested" && /exit code 0\b/.test(last?.detail ?? ""),
        show(last));
}

// ------------------------------------------------------------------------ handshake
const initialize = toPlugin[0];
const initParams = initialize?.params ?? {};
check("initialize: the first frame, a request", initialize?.method === "initialize" && isRequest(initialize)
      && frames[0]?.message === initialize, show(frames[0]));
check("initialize: protocol_version 1, host_version semver, plugin_id",
      initParams.protocol_version === 1 && /^\d+\.\d+\.\d+/.test(initParams.host_version ?? "")
      && initParams.plugin_id === PLUGIN_ID, show(initParams));
check("initialize: granted = everything the manifest requests",
      ["events", "host_methods", "credentials", "ui"].every((k) => sameSet(initParams.granted?.[k], GRANTED[k])),
      show(initParams.granted));
check("initialize: data_dir and log_dir absolute, under --state-dir",
      isAbsolute(initParams.data_dir ?? "") && resolve(initParams.data_dir ?? "") === dataDir
      && isAbsolute(initParams.log_dir ?? "") && resolve(initParams.log_dir ?? "") === logDir,
      `${initParams.data_dir} ${initParams.log_dir}`);
const initAnswer = responseTo(fromPlugin, initialize?.id);
check("initialize: answered once, plugin_version 1.0.0, hooks = granted.events",
      initAnswer.length === 1 && initAnswer[0].result?.plugin_version === "1.0.0"
      && sameSet(initAnswer[0].result?.hooks, GRANTED.events), show(initAnswer));
check("plugin saw the same InitializeParams", same(summary.initialize, initParams), show(summary.initialize));
const initialized = toPlugin.find((m) => m.method === "initialized");
check("initialized: a notification with params {} (spec 9.1), after the initialize answer",
      isNotification(initialized) && same(initialized.params, {})
      && frameIndex(initialized) > frameIndex(initAnswer[0]), show(initialized));
check("host hooked every granted event",
      narration.some((t) => t === `${PLUGIN_ID} hooked: ${GRANTED.events.join(", ")}`),
      show(narration.find((t) => t.startsWith(`${PLUGIN_ID} hooked`))));

// ----------------------------------------------------------------------------- ping
{
  const pings = toPlugin.filter((m) => m.method === "ping");
  check("ping: sent at least once during the session", pings.length >= 1, `${pings.length} pings`);
  check("ping: requests with params {} (spec 9.1), each after initialized",
        pings.every((p) => isRequest(p) && same(p.params, {}) && frameIndex(p) > frameIndex(initialized)),
        show(pings));
  const answers = pings.map((p) => responseTo(fromPlugin, p.id));
  check("ping: each answered once with {} by the plugin",
        answers.every((a) => a.length === 1 && same(a[0].result, {})), show(answers));
  check("ping: the plugin saw as many pings as the host sent", summary.pings === pings.length,
        `plugin ${summary.pings}, host ${pings.length}`);
}

// --------------------------------------------------------------------- host methods
// The plugin's requests, in the order it sent them, carry vscode-jsonrpc's ids 0, 1, 2, ...
const calls = summary.calls ?? [];
const pluginRequests = fromPlugin.filter(isRequest);
const pluginNotifications = fromPlugin.filter(isNotification);
{
  const requestCalls = calls.filter((c) => c.kind === "request");
  let mismatch = null;
  requestCalls.forEach((c, i) => {
    const wire = pluginRequests[i];
    if (!mismatch && !(wire && wire.method === c.method && same(wire.params, c.params))) {
      mismatch = `call ${i} (${c.label}): plugin sent ${show({ method: c.method, params: c.params })}, host read ${show(wire)}`;
    }
  });
  check("host read every request the plugin sent, in order, params intact",
        requestCalls.length === pluginRequests.length && mismatch === null,
        mismatch ?? `${requestCalls.length} sent, ${pluginRequests.length} read`);
  const answered = pluginRequests.map((r) => responseTo(toPlugin, r.id));
  check("host answered each plugin request exactly once",
        answered.every((a) => a.length === 1), show(pluginRequests.filter((r, i) => answered[i].length !== 1)));
  const stray = toPlugin.filter((m) => isResponse(m) && !pluginRequests.some((r) => same(r.id, m.id)));
  check("host sent no response to a notification (or to anything not asked)", stray.length === 0, show(stray));
  let differs = null;
  requestCalls.forEach((c, i) => {
    const wire = answered[i]?.[0];
    if (differs || !wire) return;
    const wireOutcome = Object.hasOwn(wire, "error")
      ? { state: "error", code: wire.error.code, message: wire.error.message, data: wire.error.data ?? null }
      : { state: "result", result: wire.result };
    const seen = c.state === "error"
      ? { state: "error", code: c.error?.code, message: c.error?.message, data: c.error?.data ?? null }
      : { state: c.state, result: c.result };
    if (!same(seen, wireOutcome)) differs = `${c.label}: plugin got ${show(seen)}, host sent ${show(wireOutcome)}`;
  });
  check("plugin got exactly the answers the host sent", differs === null && calls.length > 0, differs ?? "no calls");
  check("plugin finished its call sequence", summary.calls_done === true, show(calls.filter((c) => c.state === "pending")));
  const methods = new Set(fromPlugin.filter((m) => typeof m.method === "string").map((m) => m.method));
  const missing = ["get_followed_live", "set_upstream", "get_credential", "notify", "log",
                   "register_panel", "get_panel_values", "set_status"].filter((m) => !methods.has(m));
  check("every host method was called", missing.length === 0, `missing: ${missing.join(", ")}`);
}
const call = (label) => calls.filter((c) => c.label === label);
const oneCall = (label) => {
  const found = call(label);
  return found.length === 1 ? found[0] : { label, state: `${found.length} calls` };
};
const isError = (c, code, name) => c.state === "error" && c.error?.code === code
  && (name === undefined || c.error?.data?.name === name);
function expectResult(label, expected, extra = true, extraDetail = "") {
  const c = oneCall(label);
  check(`${label}: answered ${show(expected)}`, c.state === "result" && same(c.result, expected) && extra,
        `${show(c.error ?? c.result ?? c.state)} ${extraDetail}`);
}
function expectError(label, code, name) {
  const c = oneCall(label);
  check(`${label}: error ${code}${name ? " " + name : ""}`, isError(c, code, name), show(c.error ?? c.result ?? c.state));
}
const ANA = {
  channel_id: "101", login: "ana_plays", display_name: "AnaPlays", game_id: "g-101",
  game_name: "Celeste", started_at: "2026-11-20T18:00:00Z", viewer_count: 1200,
};
expectResult("get_followed_live", { channels: [ANA] });
expectError("set_upstream.unknown", -32002, "unknown_stream");
{
  const c = oneCall("set_upstream.unknown");
  check("set_upstream.unknown: error.data.retry_after_ms null (only rate_limited has a number)",
        c.error?.data !== null && Object.hasOwn(c.error?.data ?? {}, "retry_after_ms") && c.error.data.retry_after_ms === null,
        show(c.error));
}
expectResult("set_upstream.relay-1", {},
             reports.includes("upstream of relay-1 is now https://cdn.example.invalid/relay-1/index.m3u8"),
             "(no report of the new upstream)");
expectResult("get_credential", {
  kind: "twitch.android", token: "demo-token-not-real", client_id: "demo-client", user_id: "1000",
  device_id: null, expires_at: "2026-12-31T23:59:59Z",
});
expectResult("notify", {}, narration.includes("NOTIFICATION [info] vscode-probe: hello from vscode-jsonrpc"),
             "(the demo app did not show it)");
{
  const message = "vscode-probe: a log line, ünïcødé — 配信 🎉";  // non-ASCII: byte-counted framing
  check("log: a notification the demo app received, level and non-ASCII message intact",
        pluginNotifications.some((m) => m.method === "log" && same(m.params, { level: "debug", message }))
        && reports.includes(`log [debug] ${message}`), show(reports.filter((r) => r.startsWith("log"))));
  check("an unknown notification from the plugin is not answered and changes nothing",
        pluginNotifications.some((m) => m.method === "vscode_probe.no_such_notification"),
        show(pluginNotifications.map((m) => m.method)));
}
expectResult("register_panel", {}, reports.includes('registered panel "VS Code probe" with 2 fields'),
             "(the demo app did not register it)");
expectResult("get_panel_values", { values: {} });
{
  const line = reports.find((r) => r.startsWith("status vscode-probe.state = {") && r.includes("ready"));
  let value;
  try { value = JSON.parse(line.slice("status vscode-probe.state = ".length)); } catch { value = undefined; }
  check("set_status: the declared slot reaches the demo app, value intact",
        same(value, { phase: "ready", by: "vscode-jsonrpc" }), show(line));
  check("set_status: an undeclared slot is ignored",
        !reports.some((r) => r.startsWith("status vscode-probe.undeclared")), show(reports.filter((r) => r.includes("undeclared"))));
}
expectError("register_panel.title_too_long", -32602, "invalid_params");
expectError("unknown_method", -32601);
{
  const burst = call("notify.burst");
  const ok = burst.filter((c) => c.state === "result" && same(c.result, {}));
  const limited = burst.filter((c) => isError(c, -32003, "rate_limited"));
  const refillMs = 10000 * TIME_SCALE;
  check("notify: burst 3 then rate_limited (two more fit, the third is -32003)",
        burst.length === 3 && ok.length === 2 && limited.length === 1, show(burst.map((c) => c.error ?? c.result)));
  const retry = limited[0]?.error?.data?.retry_after_ms;
  check(`notify: rate_limited carries retry_after_ms in (0, ${refillMs}]`,
        typeof retry === "number" && retry > 0 && retry <= refillMs, show(limited[0]?.error));
}

// --------------------------------------------------------------------------- events
const EVENT_NAMES = new Set(GRANTED.events);
const channelIds = (p) => (p?.channels ?? []).map((c) => c.channel_id);
const isChannel = (c) => ["channel_id", "login", "display_name"].every((k) => typeof c?.[k] === "string")
  && ["game_id", "game_name", "started_at", "viewer_count"].every((k) => Object.hasOwn(c, k));
const isChat = (m) => ["id", "user_id", "login", "display_name", "text"].every((k) => typeof m?.[k] === "string")
  && Array.isArray(m.badges) && typeof m.is_action === "boolean" && RFC3339.test(m.ts ?? "")
  && ["color", "msg_type", "system_message", "bits"].every((k) => Object.hasOwn(m, k));
// The panel the plugin registered: the demo saves every field of it (toggles on, then off).
const panelRequest = fromPlugin.find((m) => m.method === "register_panel");
const panelKeys = (panelRequest?.params?.schema?.sections ?? [])
  .flatMap((s) => s.fields ?? []).map((f) => f.key).sort();
const savedPanel = (p, quiet) => same(Object.keys(p?.values ?? {}).sort(), panelKeys)
  && p.values.quiet === quiet;
// What the demo script emits, in order (examples/demo_host/script.cpp).
const EXPECTED_EVENTS = [
  ["on_followed_live", (p) => same(channelIds(p), ["101", "102"]) && p.channels.every(isChannel)],
  ["on_stream_start", (p) => same(p.channel, ANA)],
  ["on_channel_change", (p) => same(p, { channel_id: "101", login: "ana_plays" })],
  ["on_watch_tick", (p) => p.active_channel_id === "101" && RFC3339.test(p.ts ?? "")],
  ["on_chat_message", (p) => p.channel === "ana_plays" && p.message?.id === "m1" && p.message.text === "hype!" && isChat(p.message)],
  ["on_chat_message", (p) => p.channel === "ana_plays" && p.message?.id === "m2" && isChat(p.message)],
  ["on_followed_live", (p) => same(channelIds(p), ["101", "102", "103"])],
  ["on_panel_change", (p) => savedPanel(p, true)],
  ["on_followed_live", (p) => same(channelIds(p), ["101", "102", "103", "104"])],
  ["on_panel_change", (p) => savedPanel(p, false)],
  ["on_followed_live", (p) => same(channelIds(p), ["101", "102", "103", "104", "200", "201", "202", "203"])
    && p.channels.every(isChannel)],
  ["on_stream_stop", (p) => same(p, { channel_id: "101" })],
];
{
  const got = (summary.events ?? []);
  check("events: every event the demo emits, in order",
        same(got.map((e) => e.method), EXPECTED_EVENTS.map(([m]) => m)), show(got.map((e) => e.method)));
  const wrong = EXPECTED_EVENTS.map(([m, ok], i) => (got[i]?.method === m && ok(got[i].params ?? {}) ? null : i))
    .filter((i) => i !== null);
  check("events: payloads as the demo sends them (full Channel and ChatMessage shapes)", wrong.length === 0,
        wrong.map((i) => `#${i} ${show(got[i])}`).join("; "));
  const sent = toPlugin.filter((m) => EVENT_NAMES.has(m.method));
  check("events: the plugin received exactly what the host sent",
        same(got.map((e) => ({ method: e.method, params: e.params })), sent.map((m) => ({ method: m.method, params: m.params }))),
        `host sent ${sent.length}, plugin got ${got.length}`);
  check("events: notifications (no id), none before initialized",
        sent.every((m) => isNotification(m) && frameIndex(m) > frameIndex(initialized)), show(sent.find((m) => !isNotification(m))));
  const after = call("get_panel_values.after_change");
  check("get_panel_values after each on_panel_change: the values just saved",
        after.length === 2 && savedPanel(after[0].result, true) && savedPanel(after[1].result, false),
        show(after.map((c) => c.result ?? c.error)));
}

// ---------------------------------------------------------------------- invoke_action
{
  const invokes = toPlugin.filter((m) => m.method === "invoke_action");
  const invoke = invokes[0];
  check("invoke_action: one request, action live-alerts.test, args {text: \"Test alert\"}",
        invokes.length === 1 && isRequest(invoke)
        && same(invoke.params, { action: "live-alerts.test", args: { text: "Test alert" } }), show(invokes));
  const answer = invoke ? responseTo(fromPlugin, invoke.id) : [];
  check("invoke_action: answered {ok: true}, and the host got it",
        answer.length === 1 && same(answer[0].result, { ok: true })
        && narration.includes(`invoke_action ${PLUGIN_ID} live-alerts.test -> {"ok":true}`),
        show([answer, narration.find((t) => t.startsWith("invoke_action"))]));
  check("invoke_action: the plugin handled it once",
        (summary.invoke_action ?? []).length === 1 && same(summary.invoke_action[0].answer, { ok: true }),
        show(summary.invoke_action));
}

// -------------------------------------------------------------------- shutdown, exit
{
  const shutdown = toPlugin.find((m) => m.method === "shutdown");
  const lastEvent = toPlugin.filter((m) => EVENT_NAMES.has(m.method)).at(-1);
  check("shutdown: a request without params (spec 9.1), after the last event",
        isRequest(shutdown) && !Object.hasOwn(shutdown, "params") && frameIndex(shutdown) > frameIndex(lastEvent),
        show(shutdown));
  const answer = shutdown ? responseTo(fromPlugin, shutdown.id) : [];
  check("shutdown: answered with result null",
        answer.length === 1 && Object.hasOwn(answer[0], "result") && answer[0].result === null
        && !Object.hasOwn(answer[0], "error"), show(answer));
  const exit = toPlugin.find((m) => m.method === "exit");
  check("exit: a notification without params, after the shutdown answer",
        isNotification(exit) && !Object.hasOwn(exit, "params") && answer.length === 1
        && frameIndex(exit) > frameIndex(answer[0]), show(exit));
  check("exit: nothing sent to the plugin after it", exit !== undefined && toPlugin.at(-1) === exit, show(toPlugin.at(-1)));
  const seen = (summary.lifecycle ?? []).map((e) => e.method);
  const pingsSeen = seen.filter((m) => m === "ping").length;
  check("plugin saw initialize, initialized, ping..., shutdown, exit in that order",
        same(seen, ["initialize", "initialized", ...Array(pingsSeen).fill("ping"), "shutdown", "exit"])
        && summary.shutdown_answered === true && summary.exit_received === true, show(seen));
  const s = (summary.lifecycle ?? []).find((e) => e.method === "shutdown");
  const x = (summary.lifecycle ?? []).find((e) => e.method === "exit");
  check("plugin saw shutdown and exit without params", s?.params_absent === true && x?.params_absent === true,
        show([s, x]));
}

// ----------------------------------------------------------------------------- misc
{
  let log = "";
  try { log = readFileSync(join(logDir, "plugin.log"), "utf8"); } catch { log = ""; }
  check("plugin stderr reached <log_dir>/plugin.log", /vscode-probe\[\d+\]: started/.test(log)
        && log.includes("exit received"), show(log.slice(0, 200)));
  check("plugin ran in its install directory (spec 1)", resolve(summary.cwd ?? "") === resolve(pluginDir),
        show(summary.cwd));
  check("plugin saw nothing unexpected (no unknown message, unhooked event or transport error)",
        (summary.unexpected ?? []).length === 0, show(summary.unexpected));
}

// ---------------------------------------------------------------------------- verdict
if (failed > 0 || passed === 0) {
  console.log(`kept for inspection: ${work}`);
  console.log("---- demo host output (last 60 lines) ----");
  console.log(hostOutput.split("\n").slice(-60).join("\n"));
} else {
  rmSync(work, { recursive: true, force: true });
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
