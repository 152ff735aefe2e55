// trace.Browser: the inspector as users use it. For each protocol, its sample host runs a
// session with --transcript (and must print the `rpckit trace` command that opens it); a
// deliberately broken frame is appended; `rpckit trace` writes the page; headless Chromium
// (Debian's chromium, driven by playwright-core) opens it and the test checks, through the
// page: the number of rows, a request paired with its answer and its duration, a nested
// request under its parent (StreamNook and desktop sessions have plugin calls made while the
// plugin handles a host request), the "errors only" filter, and the broken frame's findings
// in the words of `rpckit validate` with their JSON pointer highlighted. A screenshot of each
// page is kept in --out.
//
//   node browser_test.mjs --rpckit R --source DIR --out DIR --demo-host H --live-alerts-dir D
//     --desktop-host H --desktop-plugin P --codex-host H --codex-plugin P --loaf-client C
//     --loaf-server S --core-host H --core-plugin P
// Exit 0 all passed, 1 a check failed, 77 skipped (no /usr/bin/chromium).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const CHROMIUM = '/usr/bin/chromium';
const args = {};
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];

if (!fs.existsSync(CHROMIUM)) {
  console.log(`SKIPPED: ${CHROMIUM} not found (Debian's chromium package; tools/bootstrap installs it)`);
  process.exit(77);
}
let chromium;
try {
  ({ chromium } = await import(path.join(path.dirname(fileURLToPath(import.meta.url)), '../../node_modules/playwright-core/index.mjs')));
} catch (e) {
  console.error('playwright-core is missing: run `npm ci` (tools/bootstrap does)\n' + e);
  process.exit(1);
}

let failures = 0;
let passes = 0;
function check(ok, what, detail) {
  if (ok) { passes++; console.log(`  ok   ${what}`); }
  else { failures++; console.log(`  FAIL ${what}${detail !== undefined ? ': ' + JSON.stringify(detail) : ''}`); }
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'rpckit-trace-test-'));
fs.mkdirSync(args.out, { recursive: true });
const schema = (rel) => path.join(args.source, rel);
const PROTOCOLS = [
  // The demo's plugin sends its alerts from a thread of its own: whether one goes out while
  // the host's invoke_action waits is timing, so nesting is checked there only when it happened.
  { name: 'streamnook', schema: schema('schema/protocol.json'),
    run: (t) => [args['demo-host'], [args['live-alerts-dir'], '--time-scale', '0.05', '--ignore-stdin',
      '--state-dir', path.join(work, 'state'), '--transcript', t]] },
  { name: 'desktop', schema: schema('schema/desktop/protocol.json'), nested: true,
    run: (t) => [args['desktop-host'], ['--transcript', t, '--', args['desktop-plugin']]] },
  { name: 'codex_metadata', schema: schema('schema/codex_metadata/protocol.json'),
    run: (t) => [args['codex-host'], ['--time-scale', '0.5', '--transcript', t, '--', args['codex-plugin']]] },
  { name: 'loaf', schema: schema('schema/loaf/protocol.json'),
    run: (t) => [args['loaf-client'], ['--time-scale', '0.5', '--transcript', t, '--', args['loaf-server'], 'rpc']] },
  { name: 'core_line', schema: schema('schema/core_line/protocol.json'), exchange: true,
    run: (t) => [args['core-host'], ['--plugin', 'rpckit.text', '--tool', 'text.transform', '--allow',
      'tool.execute', '--input-json', '{"text":"stressed","ops":["reverse"]}', '--transcript', t, '--', args['core-plugin']]] },
];

function run(cmd, argv, options = {}) {
  const r = spawnSync(cmd, argv, { encoding: 'utf8', timeout: 120000, stdio: ['ignore', 'pipe', 'pipe'], ...options });
  return { status: r.status, out: (r.stdout || '') + (r.stderr || '') };
}

// What the transcript holds, worked out here independently of the page.
function analyse(lines, exchange) {
  const frames = lines.filter((e) => e.type === 'frame');
  if (exchange) {  // a one-shot exchange: each step answers the other side's last one
    const i = frames.findIndex((f, k) => k > 0 && f.direction !== frames[k - 1].direction);
    return { frames, pair: i > 0 ? { request: i, answer: i + 1, seconds: frames[i].t - frames[i - 1].t } : null, nested: null };
  }
  const other = (dir) => dir.split('_to_').reverse().join('_to_');
  const pending = new Map();
  let pair = null, nested = null;
  frames.forEach((f, i) => {
    const m = f.message;
    if (!m || typeof m !== 'object') return;
    const from = f.direction.split('_to_')[0];
    if (typeof m.method === 'string' && 'id' in m) {
      if (!nested) {  // the latest request of the other side still in flight
        let parent = -1;
        for (const [key, p] of pending) if (key.startsWith(f.plugin + '|') && p.from !== from && p.from) parent = Math.max(parent, p.index);
        if (parent >= 0 && from === PROTOCOL_SPAWNED) nested = { child: i + 1, parent: parent + 1 };
      }
      pending.set(`${f.plugin}|${f.direction}|${JSON.stringify(m.id)}`, { index: i, from, t: f.t });
    } else if ('id' in m && ('result' in m || 'error' in m)) {
      const key = `${f.plugin}|${other(f.direction)}|${JSON.stringify(m.id)}`;
      const p = pending.get(key);
      if (p) {
        pending.delete(key);
        if (!pair && 'result' in m) pair = { request: p.index + 1, answer: i + 1, seconds: f.t - p.t };
      }
    }
  });
  return { frames, pair, nested };
}
let PROTOCOL_SPAWNED = 'plugin';  // the side whose calls are nested under the host's

// "1.6 ms" / "0.30 ms" / "1.20 s" -> seconds.
function seconds(text) {
  const m = /^([\d.]+) (ms|s)$/.exec(text.trim());
  return m ? Number(m[1]) / (m[2] === 'ms' ? 1000 : 1) : NaN;
}

const profile = fs.mkdtempSync(path.join(work, 'profile-'));
const browser = await chromium.launchPersistentContext(profile, {
  executablePath: CHROMIUM, headless: true, viewport: { width: 1500, height: 900 },
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const page = browser.pages()[0] || await browser.newPage();
const pageErrors = [];
page.on('pageerror', (e) => pageErrors.push(String(e)));
// No network at view time: any request but the file itself fails the test.
const requests = [];
page.on('request', (r) => { if (!r.url().startsWith('file://')) requests.push(r.url()); });

async function selectFrame(n) {
  await page.evaluate((k) => { document.getElementById('table-scroll').scrollTop = Math.max(0, (k - 1) * 24 - 120); }, n);
  const row = page.locator(`#table-rows .row[data-frame="${n}"]`);
  await row.click();
  await page.waitForSelector(`#tab-message .msg-head`);
  return row;
}

async function visibleFrames() {
  const total = Number(await page.getAttribute('#count', 'data-rows'));
  const seen = new Map();
  for (let top = 0; seen.size < total; top += 400) {
    await page.evaluate((y) => { document.getElementById('table-scroll').scrollTop = y; }, top);
    await page.waitForTimeout(20);
    for (const r of await page.$$eval('#table-rows .row', (rows) => rows.map((x) => ({
      frame: Number(x.dataset.frame), bad: x.classList.contains('bad'),
      status: x.querySelector('.c-status').textContent, kind: x.querySelector('.kind').textContent })))) seen.set(r.frame, r);
    if (top > total * 24 + 400) break;
  }
  return [...seen.values()];
}

for (const p of PROTOCOLS) {
  console.log(`${p.name}:`);
  PROTOCOL_SPAWNED = p.name === 'loaf' ? 'server' : 'plugin';
  const transcript = path.join(work, `${p.name}.jsonl`);
  const [cmd, argv] = p.run(transcript);
  const host = run(cmd, argv, { cwd: work });
  check(host.status === 0, 'the sample host ran its session', host.out.slice(-2000));
  const inspect = host.out.split('\n').find((l) => l.startsWith('inspect: '));
  check(!!inspect && inspect.includes(' trace --schema ' + p.schema + ' ') && inspect.endsWith(transcript),
    'the host printed the command that opens its transcript in the inspector', inspect);

  // A deliberately broken frame: the first one again, a member of the wrong type.
  const lines = fs.readFileSync(transcript, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
  const first = lines.find((e) => e.type === 'frame');
  const broken = { ...first, t: Math.max(...lines.map((e) => e.t || 0)) + 0.001, message: { ...first.message } };
  const member = 'params' in broken.message ? 'params' : Object.keys(broken.message).find((k) => k !== 'type');
  broken.message[member] = 12345;
  fs.appendFileSync(transcript, JSON.stringify(broken) + '\n');
  lines.push(broken);
  const { frames, pair, nested } = analyse(lines, p.exchange);
  const brokenFrame = frames.length;

  const validate = run(args.rpckit, ['validate', '--schema', p.schema, '--transcript', transcript]);
  const cliLines = validate.out.split('\n').filter((l) => l.includes(`: frame ${brokenFrame} `));
  const json = JSON.parse(run(args.rpckit, ['validate', '--json', '--schema', p.schema, '--transcript', transcript]).out);
  const brokenFindings = json.findings.filter((f) => f.frame === brokenFrame);
  const errorFrames = new Set(json.findings.filter((f) => f.severity === 'error' && f.frame).map((f) => f.frame));
  const html = path.join(work, `${p.name}.html`);
  const traced = run(args.rpckit, ['trace', '--schema', p.schema, transcript, '-o', html]);
  check(traced.status === 0, 'rpckit trace wrote the page', traced.out);

  await page.goto('file://' + html);
  await page.waitForSelector('body[data-ready=true]');
  check(Number(await page.getAttribute('#count', 'data-rows')) === frames.length, `the table has a row per frame (${frames.length})`,
    await page.textContent('#count'));

  // A request paired with its answer, and its duration.
  check(!!pair, 'the session has an answered request');
  if (pair) {
    await selectFrame(pair.request);
    const answer = await page.getAttribute('#tab-message [data-role=answer-link]', 'data-frame');
    check(Number(answer) === pair.answer, `request #${pair.request} is paired with its answer #${pair.answer}`, answer);
    const shown = await page.textContent('#tab-message [data-role=duration]');
    const cell = await page.textContent(`#table-rows .row[data-frame="${pair.request}"] .c-dur`);
    check(Math.abs(seconds(shown) - pair.seconds) <= pair.seconds * 0.05 + 2e-5 && cell === shown,
      `its duration is the answer's time less the request's (${(pair.seconds * 1000).toFixed(3)} ms)`, [shown, cell]);
  }

  // A nested request under its parent.
  if (p.nested) check(!!nested, 'the session has a call made while the plugin handles a host request');
  if (nested) {
    await selectFrame(nested.child);
    const parent = await page.getAttribute('#tab-message [data-role=parent-link]', 'data-frame');
    check(Number(parent) === nested.parent, `request #${nested.child} is nested under #${nested.parent}`, parent);
    const indent = await page.$eval(`#table-rows .row[data-frame="${nested.child}"] .c-method`,
      (x) => [parseFloat(getComputedStyle(x).paddingLeft), !!x.querySelector('.nest')]);
    check(indent[0] >= 16 && indent[1], 'it is indented under its parent in the table', indent);
    const children = await page.$$eval('#tab-message [data-role=child-link]', (xs) => xs.map((x) => Number(x.dataset.frame)));
    await selectFrame(nested.parent);
    const listed = await page.$$eval('#tab-message [data-role=child-link]', (xs) => xs.map((x) => Number(x.dataset.frame)));
    check(listed.includes(nested.child) && children.length === 0, 'the parent lists it among its nested calls', listed);
  }

  // The broken frame: the findings of rpckit validate, word for word, pointers highlighted.
  await selectFrame(brokenFrame);
  const texts = await page.$$eval('#tab-message > .findings li .text', (xs) => xs.map((x) => x.textContent));
  check(cliLines.length > 0 && JSON.stringify([...texts].sort()) === JSON.stringify([...cliLines].sort()),
    `the broken frame #${brokenFrame} shows the findings of rpckit validate`, { page: texts, cli: cliLines });
  const highlighted = await page.$$eval('#tab-message .tree .node.hl', (xs) => xs.map((x) => x.dataset.pointer));
  const pointer = brokenFindings.find((f) => f.severity === 'error').instance;
  check(highlighted.some((h) => pointer === h || pointer.startsWith(h + '/')),
    `its JSON pointer ${pointer} is highlighted in the tree`, highlighted);

  // Errors only.
  await page.check('#f-errors');
  const shown = await visibleFrames();
  const errorish = (r) => r.bad || /error|no answer/.test(r.status) || r.kind === 'error';
  check(shown.length > 0 && shown.length < frames.length && shown.every(errorish),
    `"errors only" leaves only errors (${shown.length} of ${frames.length})`, shown.filter((r) => !errorish(r)));
  check([...errorFrames].every((f) => shown.some((r) => r.frame === f)), 'and every frame rpckit validate calls an error',
    [...errorFrames]);
  await page.uncheck('#f-errors');

  // A screenshot to keep: the nested call (or the broken frame) selected.
  await selectFrame(nested ? nested.child : brokenFrame);
  await page.screenshot({ path: path.join(args.out, `${p.name}.png`) });
  check(pageErrors.length === 0, 'the page ran without script errors', pageErrors);
  check(requests.length === 0, 'the page made no network request', requests);
}

await browser.close();
fs.rmSync(work, { recursive: true, force: true });
console.log(`screenshots: ${args.out}`);
console.log(`${passes} passed, ${failures} failed`);
process.exit(failures ? 1 : 0);
