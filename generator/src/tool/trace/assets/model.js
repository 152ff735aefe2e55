// The session, read once from the page's data block into flat arrays (one entry per message),
// then the block is emptied: the page holds the data once. Pairing and nesting come from the
// generator (answers, parent); durations, depths, statuses and statistics are derived here.
const Model = (() => {
  const holder = document.getElementById('rpckit-data');
  const data = JSON.parse(holder.textContent);
  holder.textContent = '';

  const meta = data.meta;
  const lanes = data.lanes;
  const methods = data.methods;
  const docs = data.docs;
  let count = 0;
  for (const e of data.events) if (Array.isArray(e)) count++;
  const n = count;

  const t = new Float64Array(n);
  const lane = new Uint16Array(n);
  const kind = new Uint8Array(n);
  const method = new Int32Array(n);
  const size = new Uint32Array(n);
  const answer = new Int32Array(n).fill(-1);   // the response that answers a request
  const answers = new Int32Array(n).fill(-1);  // the request a response answers
  const parent = new Int32Array(n).fill(-1);   // the request during whose handling it was sent
  const depth = new Uint8Array(n);
  const dur = new Float64Array(n).fill(NaN);
  const flags = new Uint8Array(n);             // 1: an error finding, 2: a warning finding
  const ids = new Array(n);
  const bodies = new Array(n);
  const findings = new Map();                  // index -> [[sev, instance, keyword, schema, message, text]]
  const children = new Map();                  // index -> nested requests
  const notes = [];
  const general = [];                          // findings about the transcript as a whole

  const timed = !!meta.timed;
  let i = 0;
  let lastT = 0;
  for (const e of data.events) {
    if (!Array.isArray(e)) {
      notes.push({ t: typeof e.t === 'number' ? e.t : (timed ? lastT : i), at: i, entry: e });
      continue;
    }
    const [et, el_, ek, em, eid, esize, ebody, eanswers, eparent, ef] = e;
    t[i] = timed ? (typeof et === 'number' ? et : lastT) : i;
    lastT = t[i];
    lane[i] = el_;
    kind[i] = ek;
    method[i] = em;
    ids[i] = eid;
    size[i] = esize;
    bodies[i] = ebody;
    if (eanswers > 0 && eanswers - 1 < i) {
      answers[i] = eanswers - 1;
      answer[eanswers - 1] = i;
    }
    if (eparent > 0 && eparent - 1 < i) {
      parent[i] = eparent - 1;
      const list = children.get(eparent - 1);
      if (list) list.push(i); else children.set(eparent - 1, [i]);
    }
    if (ef) {
      findings.set(i, ef);
      for (const f of ef) flags[i] |= f[0] ? 1 : 2;
    }
    i++;
  }
  for (const [frame, f] of data.late) {
    if (frame > 0 && frame <= n) {
      const list = findings.get(frame - 1);
      if (list) list.push(f); else findings.set(frame - 1, [f]);
      flags[frame - 1] |= f[0] ? 1 : 2;
    } else {
      general.push(f);
    }
  }
  data.events = null;
  data.late = null;

  // Depth, duration, status.
  const STATUS_NONE = 0, STATUS_OK = 1, STATUS_ERROR = 2, STATUS_UNANSWERED = 3;
  const status = new Uint8Array(n);
  for (let k = 0; k < n; k++) {
    if (kind[k] === 0) {
      depth[k] = parent[k] >= 0 ? Math.min(depth[parent[k]] + 1, 255) : 0;
      const a = answer[k];
      if (a >= 0) {
        status[k] = kind[a] === 3 ? STATUS_ERROR : STATUS_OK;
        if (timed) dur[k] = t[a] - t[k];
      } else {
        status[k] = STATUS_UNANSWERED;
      }
    } else if (kind[k] === 2 || kind[k] === 3) {
      status[k] = kind[k] === 3 ? STATUS_ERROR : STATUS_OK;
      const q = answers[k];
      if (q >= 0) {
        depth[k] = depth[q];
        if (timed) dur[k] = t[k] - t[q];
      }
    }
  }
  const start = n ? Math.min(t[0], notes.length ? notes[0].t : t[0]) : 0;
  let end = n ? t[n - 1] : 0;
  for (const note of notes) end = Math.max(end, note.t);
  if (!timed) end = Math.max(end, n);

  function isError(k) {
    return kind[k] === 3 || status[k] === STATUS_ERROR || status[k] === STATUS_UNANSWERED ||
      (flags[k] & 1) !== 0;
  }

  function methodName(k) {
    return method[k] >= 0 ? methods[method[k]].name : '';
  }

  const peerNames = [...new Set(lanes.map((l) => l.peer))];
  function laneLabel(l) {
    const x = lanes[l];
    const dir = x.from ? x.from + ' → ' + (x.to || '?') : 'unknown sender';
    return (x.peer && peerNames.length > 1 ? x.peer + ' · ' : '') + dir;
  }

  // Per method: messages, errors, and the durations of its answered requests.
  function methodStats() {
    const stats = methods.map((m, index) => ({ index, name: m.name, known: m.known, requests: 0,
      notifications: 0, errors: 0, unanswered: 0, durations: [] }));
    for (let k = 0; k < n; k++) {
      const m = method[k];
      if (m < 0) continue;
      const s = stats[m];
      if (kind[k] === 0) {
        s.requests++;
        if (status[k] === STATUS_ERROR) s.errors++;
        if (status[k] === STATUS_UNANSWERED) s.unanswered++;
        if (!Number.isNaN(dur[k])) s.durations.push(dur[k]);
      } else if (kind[k] === 1) {
        s.notifications++;
      }
    }
    for (const s of stats) s.durations.sort((a, b) => a - b);
    return stats.filter((s) => s.requests + s.notifications > 0);
  }

  // Per class of finding (its keyword): counts and the messages that have one.
  function findingClasses() {
    const classes = new Map();
    const add = (f, k) => {
      let c = classes.get(f[2]);
      if (!c) classes.set(f[2], c = { keyword: f[2], errors: 0, warnings: 0, messages: new Set(), example: f });
      if (f[0]) c.errors++; else c.warnings++;
      if (k >= 0) c.messages.add(k);
    };
    for (const [k, list] of findings) for (const f of list) add(f, k);
    for (const f of general) add(f, -1);
    return [...classes.values()].sort((a, b) => (b.errors + b.warnings) - (a.errors + a.warnings));
  }

  function parsed(k) {
    try {
      return { ok: true, value: JSON.parse(bodies[k]) };
    } catch (e) {
      return { ok: false, value: bodies[k] };
    }
  }

  return { meta, lanes, methods, docs, n, t, lane, kind, method, size, answer, answers, parent,
    depth, dur, flags, status, ids, bodies, findings, children, notes, general, timed, start, end,
    STATUS_NONE, STATUS_OK, STATUS_ERROR, STATUS_UNANSWERED, isError, methodName, laneLabel,
    methodStats, findingClasses, parsed, peerNames };
})();
