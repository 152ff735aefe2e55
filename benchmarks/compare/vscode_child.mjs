// The child of the vscode-jsonrpc pair: a MessageConnection on stdin/stdout (Content-Length
// frames, parsed by vscode-jsonrpc's StreamMessageReader) that counts every notification,
// answers `ping` with {} and `done` with the count since the previous `done`. Exits 0 when
// its stdin closes. Spawned by vscode_parent.mjs.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const rpc = require('vscode-jsonrpc/node');

const connection = rpc.createMessageConnection(
  new rpc.StreamMessageReader(process.stdin),
  new rpc.StreamMessageWriter(process.stdout),
);
let events = 0;
connection.onNotification(() => { events += 1; });  // every method: the params are parsed
connection.onRequest('ping', () => ({}));
connection.onRequest('done', () => {
  const counted = events;
  events = 0;
  return counted;
});
connection.onClose(() => process.exit(0));
process.stdin.on('end', () => process.exit(0));
connection.listen();
