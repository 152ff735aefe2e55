// Interoperability: rpckit's Endpoint (endpoint_peer, a C++ child on stdin/stdout) against
// vscode-jsonrpc, an independent JSON-RPC 2.0 implementation, over Content-Length frames.
//
//   node tests/interop/endpoint_vscode.mjs <path to endpoint_peer>
//
// Prints one line per check and ends with exactly `N passed, M failed`. Exit status 1 on any
// failure (or when nothing was checked), 77 (ctest: skipped) when vscode-jsonrpc is missing.
// Both directions of the pipe are also split into frames here, by hand, so checks can look
// at exact bytes (string ids, answers to raw frames vscode-jsonrpc would never send).
import { spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { isDeepStrictEqual, inspect } from 'node:util';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
let rpc;
try {
  rpc = require('vscode-jsonrpc/node');
} catch (error) {
  // 77: ctest's SKIP_RETURN_CODE for this test (the C++ side is not what is missing).
  console.log(`SKIP vscode-jsonrpc is not installed (run \`npm ci\` at the repo root): ${error.message}`);
  console.log('0 passed, 0 failed');
  process.exit(77);
}

const peerPath = process.argv[2];
if (!peerPath) {
  console.log('FAIL setup: usage: endpoint_vscode.mjs <endpoint_peer>');
  console.log('0 passed, 1 failed');
  process.exit(1);
}

let passed = 0;
let failed = 0;
function check(name, ok, detail = '') {
  if (ok) {
    passed += 1;
    console.log(`ok   ${name}`);
  } else {
    failed += 1;
    console.log(`FAIL ${name}${detail ? `: ${detail}` : ''}`);
  }
}
function checkEqual(name, actual, expected) {
  const ok = isDeepStrictEqual(actual, expected);
  check(name, ok, ok ? '' : `got ${inspect(actual, { depth: 6 })}, expected ${inspect(expected, { depth: 6 })}`);
}
async function checkRejects(name, promise, expected) {
  try {
    const value = await promise;
    check(name, false, `resolved with ${inspect(value)}`);
  } catch (error) {
    const got = { code: error.code, message: error.message, data: error.data };
    const want = { code: expected.code, message: expected.message ?? got.message, data: expected.data };
    checkEqual(name, got, want);
  }
}
function finish() {
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed === 0 && passed > 0 ? 0 : 1);  // a run that checked nothing fails too
}

const overall = setTimeout(() => {
  check('whole run finished within 60 s', false);
  child.kill('SIGKILL');
  finish();
}, 60000);

// ---- the child and its streams -------------------------------------------------------------

const child = spawn(peerPath, [], { stdio: ['pipe', 'pipe', 'inherit'] });
const childExit = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
child.stdin.on('error', (error) => logged.push(`stdin: ${error.message}`));  // EPIPE after exit
child.on('error', (error) => {
  check('spawn endpoint_peer', false, error.message);
  finish();
});

// Frames split by hand from a byte stream: {header, body, json}. Waiters get them by predicate.
class FrameTap {
  constructor(name) {
    this.name = name;
    this.frames = [];
    this.waiters = [];
    this.buffer = Buffer.alloc(0);
  }
  feed(chunk) {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const end = this.buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const header = this.buffer.subarray(0, end).toString('ascii');
      const match = /^Content-Length: (\d+)$/.exec(header);
      if (!match) {
        check(`${this.name}: exactly one Content-Length header per frame`, false, JSON.stringify(header));
        this.buffer = Buffer.alloc(0);
        return;
      }
      const length = Number(match[1]);
      if (this.buffer.length < end + 4 + length) return;
      const body = this.buffer.subarray(end + 4, end + 4 + length).toString('utf8');
      this.buffer = this.buffer.subarray(end + 4 + length);
      let json;
      try {
        json = JSON.parse(body);
      } catch {
        json = { not_json: body };  // our own deliberately broken frames
      }
      const frame = { header, body, json, index: this.frames.length };
      this.frames.push(frame);
      for (const waiter of [...this.waiters]) {
        if (waiter.pred(frame)) {
          this.waiters.splice(this.waiters.indexOf(waiter), 1);
          waiter.resolve(frame);
        }
      }
    }
  }
  // The first frame (past or future) matching pred; undefined after ms.
  wait(pred, ms = 10000) {
    const found = this.frames.find(pred);
    if (found) return Promise.resolve(found);
    return new Promise((resolve) => {
      const waiter = { pred, resolve };
      this.waiters.push(waiter);
      setTimeout(() => {
        const index = this.waiters.indexOf(waiter);
        if (index >= 0) {
          this.waiters.splice(index, 1);
          resolve(undefined);
        }
      }, ms);
    });
  }
}

// What the child writes: to our tap and on to vscode-jsonrpc's reader.
const fromChild = new FrameTap('child');
const toReader = new PassThrough();
child.stdout.on('data', (chunk) => {
  fromChild.feed(chunk);
  toReader.write(chunk);
});
child.stdout.on('end', () => toReader.end());
// What node writes (vscode-jsonrpc's writer and our raw frames), in one ordered stream.
const toChild = new FrameTap('node');
const toChildStream = new PassThrough();
toChildStream.on('data', (chunk) => {
  toChild.feed(chunk);
  child.stdin.write(chunk);
});
const rawFrames = fromChild.frames;
const waitFrame = (pred, ms) => fromChild.wait(pred, ms);

function writeRaw(body) {
  const bytes = Buffer.from(body, 'utf8');
  toChildStream.write(Buffer.concat([Buffer.from(`Content-Length: ${bytes.length}\r\n\r\n`, 'ascii'), bytes]));
}

const logged = [];
const logger = {
  error: (m) => logged.push(`error: ${m}`),
  warn: (m) => logged.push(`warn: ${m}`),
  info: (m) => logged.push(`info: ${m}`),
  log: (m) => logged.push(`log: ${m}`),
};
const connection = rpc.createMessageConnection(
  new rpc.StreamMessageReader(toReader),
  new rpc.StreamMessageWriter(toChildStream),
  logger,
);

// ---- what the node side serves -------------------------------------------------------------

const nodeNotes = [];
const noteWaiters = [];
function onNote(method, params) {
  nodeNotes.push({ method, params });
  for (const w of [...noteWaiters]) {
    if (nodeNotes.length >= w.count) {
      noteWaiters.splice(noteWaiters.indexOf(w), 1);
      w.resolve();
    }
  }
}
function waitNotes(count, ms = 10000) {
  if (nodeNotes.length >= count) return Promise.resolve(true);
  return new Promise((resolve) => {
    const w = { count, resolve: () => resolve(true) };
    noteWaiters.push(w);
    setTimeout(() => resolve(nodeNotes.length >= count), ms);
  });
}

let releaseHold;
const holdReleased = new Promise((resolve) => { releaseHold = resolve; });

connection.onRequest('node.mul', (params) => ({ product: params.a * params.b }));
connection.onRequest('node.deny', () => {
  throw new rpc.ResponseError(-32001, 'consent denied', { name: 'consent_denied', retry_after_ms: null });
});
// node.nested asks the C++ side to call node.mul: node -> C++ -> node -> C++ -> node.
connection.onRequest('node.nested', async (params) => {
  const viaCpp = await connection.sendRequest('call_peer', { method: 'node.mul', params });
  return { cpp_said: viaCpp };
});
connection.onRequest('node.hold', async () => {
  await holdReleased;
  return 'released';
});
connection.onRequest('node.late', async (params) => {
  await new Promise((resolve) => setTimeout(resolve, params.after_ms));
  return 'too late';
});
connection.onNotification('node.note', (params) => onNote('node.note', params));
connection.onNotification('note.echo', (params) => onNote('note.echo', params));
connection.listen();

// ---- the checks ---------------------------------------------------------------------------------

async function main() {
  // node -> C++ requests
  checkEqual('node->C++ add', await connection.sendRequest('add', { a: 2, b: 3 }), { sum: 5 });
  const payload = { s: 'é€😀 "quoted" \\ \n', n: null, list: [1, 2.5, true, { deep: [] }], big: 9007199254740991 };
  checkEqual('node->C++ echo keeps every JSON type and UTF-8 intact', await connection.sendRequest('echo', payload), payload);
  const big = { blob: 'x'.repeat(1024 * 1024) };
  checkEqual('node->C++ echo of a 1 MiB body', await connection.sendRequest('echo', big), big);
  await checkRejects('node->C++ RpcError arrives with code, message and data', connection.sendRequest('fail', {}), {
    code: -32002, message: 'no such stream', data: { name: 'unknown_stream', retry_after_ms: null },
  });
  await checkRejects('node->C++ std::exception arrives as -32603', connection.sendRequest('fail.std', {}), { code: -32603 });
  await checkRejects('node->C++ unknown method is -32601', connection.sendRequest('no.such.method', {}), { code: -32601 });
  const concurrent = await Promise.all(Array.from({ length: 50 }, (_, i) => connection.sendRequest('add', { a: i, b: 1000 })));
  checkEqual('node->C++ 50 concurrent requests matched by id', concurrent.map((r) => r.sum), Array.from({ length: 50 }, (_, i) => i + 1000));

  // C++ -> node requests
  checkEqual('C++->node request', await connection.sendRequest('call_peer', { method: 'node.mul', params: { a: 6, b: 7 } }),
    { ok: true, result: { product: 42 } });
  checkEqual('C++->node ResponseError reaches call() as kRemote with data', await connection.sendRequest('call_peer', { method: 'node.deny', params: {} }),
    { ok: false, kind: 'remote', code: -32001, message: 'consent denied', data: { name: 'consent_denied', retry_after_ms: null } });
  const unknown = await connection.sendRequest('call_peer', { method: 'node.unknown', params: {} });
  checkEqual('C++->node unknown method is kRemote -32601', [unknown.ok, unknown.kind, unknown.code], [false, 'remote', -32601]);

  // nested: node -> C++ (nested) -> node (node.nested) -> C++ (call_peer) -> node (node.mul)
  checkEqual('nested calls across both implementations, 4 deep',
    await connection.sendRequest('nested', { a: 3, b: 14 }),
    { via_node: { cpp_said: { ok: true, result: { product: 42 } } } });

  // notifications both ways
  connection.sendNotification('note', { text: 'one' });
  connection.sendNotification('note', { text: 'two' });
  connection.sendNotification('note', { text: 'echo' });
  checkEqual('node->C++ notifications arrive in order (and get no response)', await connection.sendRequest('notes', {}), ['one', 'two', 'echo']);
  checkEqual('C++->node notify', await connection.sendRequest('notify_peer', { method: 'node.note', params: { n: 1 } }), { sent: true });
  check('C++->node notifications arrive', await waitNotes(2));
  checkEqual('C++->node notification contents', nodeNotes.map((n) => [n.method, n.params]).sort(),
    [['node.note', { n: 1 }], ['note.echo', { text: 'echo' }]].sort());
  // A response to a notification could only carry a null (or no) id: there is none so far.
  const noResponse = rawFrames.filter((f) => f.json.method === undefined && (f.json.id === undefined || f.json.id === null));
  checkEqual('no response to any notification', noResponse.map((f) => f.body), []);

  // string ids (vscode-jsonrpc only uses numbers): raw frames, exact bytes back
  writeRaw('{"jsonrpc":"2.0","id":"str-1","method":"add","params":{"a":2,"b":40}}');
  let frame = await waitFrame((f) => f.json.id === 'str-1');
  checkEqual('string id echoed exactly (raw bytes)', frame && frame.body, '{"id":"str-1","jsonrpc":"2.0","result":{"sum":42}}');
  writeRaw('{"jsonrpc":"2.0","id":"q\\"ü\\u00e9","method":"fail","params":{}}');
  frame = await waitFrame((f) => f.json.id === 'q"üé');
  checkEqual('string id with escapes echoed on an error response', frame && frame.json,
    { id: 'q"üé', jsonrpc: '2.0', error: { code: -32002, message: 'no such stream', data: { name: 'unknown_stream', retry_after_ms: null } } });
  writeRaw('{"jsonrpc":"2.0","id":-5,"method":"add","params":{"a":1,"b":1}}');
  frame = await waitFrame((f) => f.json.id === -5);
  checkEqual('negative number id echoed', frame && frame.body, '{"id":-5,"jsonrpc":"2.0","result":{"sum":2}}');

  // malformed input, raw
  const before = rawFrames.length;
  writeRaw('{"jsonrpc":"2.0","id":77,"method":');
  frame = await waitFrame((f) => f.index >= before && f.json.error && f.json.error.code === -32700);
  checkEqual('invalid JSON -> -32700 with id null', frame && [frame.json.id, frame.json.error.code], [null, -32700]);
  writeRaw('[{"jsonrpc":"2.0","id":78,"method":"add","params":{"a":1,"b":1}}]');
  frame = await waitFrame((f) => f.index >= before && f.json.error && f.json.error.code === -32600 && f.json.id === null);
  check('batch -> -32600 with id null', frame !== undefined);
  writeRaw('{"jsonrpc":"2.0","id":"p","method":"echo","params":"a string"}');
  frame = await waitFrame((f) => f.json.id === 'p');
  checkEqual('params a string -> -32600 with the id', frame && frame.json.error && frame.json.error.code, -32600);
  writeRaw('{"jsonrpc":"1.0","id":"v","method":"echo"}');
  frame = await waitFrame((f) => f.json.id === 'v');
  checkEqual('wrong jsonrpc version -> -32600 with the id', frame && frame.json.error && frame.json.error.code, -32600);
  check('vscode-jsonrpc logged the id-less error responses', logged.some((l) => l.includes('without id')), logged.join(' | '));

  // responses with a string id or an unknown id are reported by the C++ side and dropped
  const held = connection.sendRequest('call_peer', { method: 'node.hold', params: {} });
  const holdRequest = await waitFrame((f) => f.json.method === 'node.hold');
  const cppId = holdRequest ? holdRequest.json.id : undefined;
  check('C++ allocates integer ids', Number.isInteger(cppId), inspect(cppId));
  writeRaw(JSON.stringify({ jsonrpc: '2.0', id: String(cppId), result: 'forged (string id)' }));
  writeRaw(JSON.stringify({ jsonrpc: '2.0', id: 987654, result: 'forged (unknown id)' }));
  releaseHold();
  checkEqual('the real response, not a forged one, completes the call', await held, { ok: true, result: 'released' });
  const diagnostics = await connection.sendRequest('diagnostics', {});
  const unknownIds = diagnostics.filter((d) => d.kind === 'unknown_response_id');
  checkEqual('string id and unknown id responses reported as diagnostics', unknownIds.length, 2);
  checkEqual('parse error and invalid requests reported as diagnostics',
    ['parse_error', 'invalid_request'].map((k) => diagnostics.some((d) => d.kind === k)), [true, true]);

  // a deadline on the C++ side, then the late answer is dropped as unknown
  const late = await connection.sendRequest('call_peer', { method: 'node.late', params: { after_ms: 400 }, deadline_ms: 100 });
  checkEqual('C++ call deadline -> kTimeout', [late.ok, late.kind], [false, 'timeout']);
  const lateAnswer = await toChild.wait((f) => f.json.result === 'too late');
  check('node answered the timed-out request late', lateAnswer !== undefined);
  const after = await connection.sendRequest('diagnostics', {});
  checkEqual('late answer reported as unknown id', after.filter((d) => d.kind === 'unknown_response_id').length, 3);

  // exit: the child closes and exits 0
  connection.sendNotification('exit');
  const exit = await Promise.race([childExit, new Promise((r) => setTimeout(() => r('timeout'), 10000))]);
  checkEqual('exit notification ends the child with status 0', exit, { code: 0, signal: null });
}

main()
  .catch((error) => check('no exception in the script', false, error && error.stack ? error.stack : String(error)))
  .finally(() => {
    clearTimeout(overall);
    connection.dispose();
    if (child.exitCode === null) child.kill('SIGKILL');
    finish();
  });
