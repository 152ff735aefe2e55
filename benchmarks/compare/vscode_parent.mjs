// The vscode-jsonrpc pair: this parent spawns vscode_child.mjs (node, stdin/stdout on pipes),
// both ends a MessageConnection over StreamMessageReader/Writer, and runs the workloads of
// rpckit_compare with the same options, printing the same JSON (see main.cpp there):
//   node vscode_parent.mjs --events-file FILE [--pings N] [--warmup-pings N]
//                          [--events SIZE:BATCHESxBATCH]...
// FILE is `rpckit_compare events` (the sized events: the very params the C++ pairs send).
//   ping    `await sendRequest('ping', {})`, each round trip timed
//   events  BATCH `sendNotification(method, params)` (not awaited one by one: vscode-jsonrpc
//           queues them in order), then `await sendRequest('done', {})`, checked against BATCH
// Needs vscode-jsonrpc (package-lock.json; `npm ci` at the repository root).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const rpc = require('vscode-jsonrpc/node');
const childPath = fileURLToPath(new URL('./vscode_child.mjs', import.meta.url));

function parseArgs(argv) {
  const options = { pings: 0, warmupPings: 200, events: [], eventsFile: null };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (value === undefined) throw new Error(`missing value after ${flag}`);
    if (flag === '--pings') options.pings = Number.parseInt(value, 10);
    else if (flag === '--warmup-pings') options.warmupPings = Number.parseInt(value, 10);
    else if (flag === '--events-file') options.eventsFile = value;
    else if (flag === '--events') {
      const match = /^([a-z]+):(\d+)x(\d+)$/.exec(value);
      if (!match) throw new Error(`--events SIZE:BATCHESxBATCH, not ${value}`);
      options.events.push({ size: match[1], batches: Number(match[2]), batch: Number(match[3]) });
    } else throw new Error(`unknown option ${flag}`);
  }
  return options;
}

function start() {
  const child = spawn(process.execPath, [childPath], { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const connection = rpc.createMessageConnection(
    new rpc.StreamMessageReader(child.stdout),
    new rpc.StreamMessageWriter(child.stdin),
  );
  connection.listen();
  return { child, connection, exited };
}

async function stop(peer) {
  peer.connection.dispose();
  peer.child.stdin.end();
  const { code, signal } = await peer.exited;
  if (code !== 0) throw new Error(`vscode child ended with ${code ?? signal}`);
}

const framed = (body) => Buffer.byteLength(body) + `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n`.length;

async function ping(count, warmup) {
  const peer = start();
  const samples = [];
  for (let i = 0; i < warmup + count; i += 1) {
    const t0 = process.hrtime.bigint();
    await peer.connection.sendRequest('ping', {});
    const t1 = process.hrtime.bigint();
    if (i >= warmup) samples.push(Number(t1 - t0) / 1000);
  }
  await stop(peer);
  // What vscode-jsonrpc writes: {jsonrpc, id, method, params} and {jsonrpc, id, result}.
  const id = warmup + count - 1;
  return {
    count: samples.length,
    warmup,
    request_bytes: framed(JSON.stringify({ jsonrpc: '2.0', id, method: 'ping', params: {} })),
    response_bytes: framed(JSON.stringify({ jsonrpc: '2.0', id, result: {} })),
    samples_us: samples.map((us) => Math.round(us * 1000) / 1000),
  };
}

async function events(event, run) {
  const peer = start();
  const batch = async () => {
    for (let i = 0; i < run.batch; i += 1) peer.connection.sendNotification(event.method, event.params);
    const counted = await peer.connection.sendRequest('done', {});
    if (counted !== run.batch) throw new Error(`the vscode child counted ${counted} of ${run.batch}`);
  };
  await batch();  // warm-up
  const t0 = process.hrtime.bigint();
  for (let b = 0; b < run.batches; b += 1) await batch();
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  await stop(peer);
  return {
    size: run.size,
    method: event.method,
    batches: run.batches,
    batch: run.batch,
    seconds,
    events_per_s: (run.batches * run.batch) / seconds,
    frame_bytes: framed(JSON.stringify({ jsonrpc: '2.0', method: event.method, params: event.params })),
  };
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const sized = options.eventsFile ? JSON.parse(readFileSync(options.eventsFile, 'utf8')) : [];
  const report = { impl: 'vscode-jsonrpc', version: require('vscode-jsonrpc/package.json').version };
  if (options.pings > 0) report.ping = await ping(options.pings, options.warmupPings);
  report.events = [];
  for (const run of options.events) {
    const event = sized.find((e) => e.size === run.size);
    if (!event) throw new Error(`no event of size ${run.size} (--events-file)`);
    report.events.push(await events(event, run));
  }
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

const watchdog = setTimeout(() => {
  console.error('vscode_parent: no result after 300 s');
  process.exit(1);
}, 300000);
watchdog.unref();
main().then(() => process.exit(0), (error) => {
  console.error(`vscode_parent: ${error.stack ?? error}`);
  process.exit(1);
});
