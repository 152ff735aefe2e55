// The timeline: one lane per peer and direction (requests as spans from send to answer, error
// answers red, unanswered ones open to the end; notifications as ticks) and one lane per peer
// for its lifecycle (spawn, handshake done, stops with their cause, restarts, disable).
// Drawn on a canvas, only what the view shows, merging what falls on the same pixels, so a
// 100,000-message session stays smooth.
const Timeline = (() => {
  const M = Model;
  const canvas = document.getElementById('timeline');
  const ctx = canvas.getContext('2d');
  const LABEL_W = 210, AXIS_H = 22, ROW_H = 20, PAD_R = 14;
  const COLORS = { req: '#3563e9', nested: '#6f8ff0', err: '#d64545', note: '#8893a6',
    other: '#c98a0b', grid: '#eef0f4', text: '#6a7385', sel: '#f0b400' };
  const LIFE_COLORS = { starting: '#8893a6', running: '#1f9d55', stopped: '#d64545',
    restart_scheduled: '#c98a0b', disabled: '#7b1d1d' };

  // Rows: per peer, its lanes, then its lifecycle.
  const rows = [];
  const peers = [];
  const addPeer = (p) => { if (!peers.includes(p)) peers.push(p); };
  M.lanes.forEach((l) => addPeer(l.peer));
  M.notes.forEach((x) => addPeer(x.entry.plugin || ''));
  const laneItems = M.lanes.map(() => []);
  for (let k = 0; k < M.n; k++) {
    const kd = M.kind[k];
    if (kd === 0 || kd === 1 || kd === 4 || M.answers[k] < 0) laneItems[M.lane[k]].push(k);
  }
  const laneMaxSpan = laneItems.map((items) => {
    let max = 0;
    for (const k of items) if (M.kind[k] === 0 && M.answer[k] >= 0) max = Math.max(max, M.t[M.answer[k]] - M.t[k]);
    return max;
  });
  const laneOpen = laneItems.map((items) => items.filter((k) => M.kind[k] === 0 && M.answer[k] < 0));
  for (const p of peers) {
    M.lanes.forEach((l, index) => {
      if (l.peer === p) rows.push({ type: 'lane', lane: index, label: M.laneLabel(index) });
    });
    const life = M.notes.filter((x) => (x.entry.plugin || '') === p);
    const label = !p ? 'host notes' : M.peerNames.length > 1 ? p + ' · lifecycle' : 'lifecycle';
    if (life.length) rows.push({ type: 'life', peer: p, notes: life, label });
  }

  const span = Math.max(M.end - M.start, M.timed ? 1e-3 : 1);
  const view = { t0: M.start - span * 0.01, t1: M.end + span * 0.01 };
  const full = { ...view };
  let selected = -1;
  let onSelect = () => {};
  let width = 0;

  const plotW = () => Math.max(10, width - LABEL_W - PAD_R);
  const xOf = (t) => LABEL_W + ((t - view.t0) / (view.t1 - view.t0)) * plotW();
  const tOf = (x) => view.t0 + ((x - LABEL_W) / plotW()) * (view.t1 - view.t0);

  function resize() {
    const dpr = window.devicePixelRatio || 1;
    width = canvas.parentElement.clientWidth;
    const height = AXIS_H + rows.length * ROW_H + 6;
    canvas.style.height = height + 'px';
    canvas.width = Math.round(width * dpr);
    canvas.height = Math.round(height * dpr);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    draw();
  }

  function niceStep(range, pixels) {
    const target = range / Math.max(1, pixels / 90);
    const p = Math.pow(10, Math.floor(Math.log10(target)));
    for (const m of [1, 2, 5, 10]) if (m * p >= target) return m * p;
    return 10 * p;
  }

  function axisLabel(v, step) {
    if (!M.timed) return '#' + Math.round(v + 1);
    const digits = Math.max(0, Math.min(6, -Math.floor(Math.log10(step))));
    return v.toFixed(digits) + ' s';
  }

  function lowerBound(items, t) {
    let lo = 0, hi = items.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (M.t[items[mid]] < t) lo = mid + 1; else hi = mid;
    }
    return lo;
  }

  function drawLane(row, y) {
    const items = laneItems[row.lane];
    const top = y + 4, h = ROW_H - 8;
    const last = {};
    const rect = (style, x0, x1, yy, hh) => {
      const a = Math.floor(x0), b = Math.max(a + 1, Math.ceil(x1));
      const prev = last[style];
      if (prev && a >= prev[0] && b <= prev[1] && prev[2] === yy) return;  // same pixels
      if (prev && a <= prev[1] && prev[2] === yy) { prev[1] = Math.max(prev[1], b); }
      else last[style] = [a, b, yy];
      ctx.fillStyle = style;
      ctx.fillRect(a, yy, Math.max(1.5, b - a), hh);
    };
    const x1view = LABEL_W + plotW();
    const draw1 = (k) => {
      const x0 = xOf(M.t[k]);
      const kd = M.kind[k];
      if (kd === 0) {
        const a = M.answer[k];
        const x1 = a >= 0 ? xOf(M.t[a]) : xOf(M.end);
        if (x1 < LABEL_W || x0 > x1view) return;
        const color = M.status[k] === M.STATUS_OK ? (M.depth[k] ? COLORS.nested : COLORS.req) : COLORS.err;
        const nested = M.depth[k] > 0;
        rect(color, Math.max(LABEL_W, x0), Math.min(x1view, Math.max(x1, x0 + 2)),
          nested ? top + 3 : top, nested ? h - 6 : h);
        if (a < 0) {  // open to the end: a fading tail
          ctx.fillStyle = 'rgba(214,69,69,0.25)';
          ctx.fillRect(Math.max(LABEL_W, x0), top + h, Math.min(x1view, x1) - Math.max(LABEL_W, x0), 1.5);
        }
      } else {
        if (x0 < LABEL_W || x0 > x1view) return;
        const color = kd === 1 ? COLORS.note : kd === 4 ? COLORS.other : kd === 3 ? COLORS.err : COLORS.note;
        rect(color, x0 - 0.75, x0 + 0.75, top - 1, h + 2);
      }
    };
    // Ticks first, spans over them: zoomed out, a lane's requests stay visible.
    const from = lowerBound(items, view.t0 - laneMaxSpan[row.lane]);
    for (const spans of [false, true]) {
      for (let j = from; j < items.length; j++) {
        const k = items[j];
        if (M.t[k] > view.t1) break;
        if ((M.kind[k] === 0) === spans) draw1(k);
      }
    }
    for (const k of laneOpen[row.lane]) if (M.t[k] < view.t0 - laneMaxSpan[row.lane]) draw1(k);
  }

  function drawLife(row, y) {
    let labelEnd = -1;
    const x1view = LABEL_W + plotW();
    ctx.font = '11px system-ui, sans-serif';
    const xs = row.notes.map((note) => xOf(note.t));
    row.notes.forEach((note, j) => {
      const x = xs[j];
      if (x < LABEL_W - 4 || x > x1view + 4) return;
      const e = note.entry;
      const isLife = e.type === 'lifecycle';
      const color = isLife ? (LIFE_COLORS[e.event] || '#555') : '#b5bcc9';
      const cy = y + ROW_H / 2;
      ctx.fillStyle = color;
      ctx.beginPath();
      const r = isLife ? 5 : 3;
      ctx.moveTo(x, cy - r); ctx.lineTo(x + r, cy); ctx.lineTo(x, cy + r); ctx.lineTo(x - r, cy);
      ctx.closePath();
      ctx.fill();
      if (isLife && x > labelEnd) {
        const text = e.event + (e.cause ? ' (' + e.cause + ')' : '');
        const w = ctx.measureText(text).width;
        let next = x1view;  // the label ends before the next lifecycle marker
        for (let m = j + 1; m < row.notes.length; m++) {
          if (row.notes[m].entry.type === 'lifecycle' && xs[m] > x + 1) { next = xs[m] - 6; break; }
        }
        if (x + 8 + w < next) {
          ctx.fillStyle = '#3a4254';
          ctx.fillText(text, x + 8, cy + 4);
          labelEnd = x + 8 + w + 6;
        }
      }
    });
  }

  function draw() {
    const height = AXIS_H + rows.length * ROW_H + 6;
    ctx.clearRect(0, 0, width, height);
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, width, height);
    // Axis and grid.
    const step = niceStep(view.t1 - view.t0, plotW());
    ctx.font = '11px system-ui, sans-serif';
    ctx.textBaseline = 'alphabetic';
    for (let v = Math.ceil(view.t0 / step) * step; v <= view.t1; v += step) {
      const x = Math.round(xOf(v)) + 0.5;
      ctx.fillStyle = COLORS.grid;
      ctx.fillRect(x, AXIS_H - 4, 1, height);
      ctx.fillStyle = COLORS.text;
      ctx.fillText(axisLabel(v, step), x + 3, 14);
    }
    rows.forEach((row, r) => {
      const y = AXIS_H + r * ROW_H;
      if (r % 2 === 1) {
        ctx.fillStyle = 'rgba(246,247,249,0.7)';
        ctx.fillRect(0, y, width, ROW_H);
      }
      ctx.save();
      ctx.beginPath();
      ctx.rect(LABEL_W - 6, y, plotW() + 12, ROW_H);
      ctx.clip();
      if (row.type === 'lane') drawLane(row, y); else drawLife(row, y);
      ctx.restore();
      ctx.fillStyle = row.type === 'life' ? COLORS.text : '#1d2330';
      ctx.font = (row.type === 'life' ? 'italic ' : '') + '11.5px system-ui, sans-serif';
      let label = row.label;
      while (label.length > 4 && ctx.measureText(label).width > LABEL_W - 18) label = label.slice(0, -2);
      if (label !== row.label) label += '…';
      ctx.fillText(label, 12, y + ROW_H / 2 + 4);
    });
    ctx.fillStyle = '#e1e4ea';
    ctx.fillRect(LABEL_W - 7, AXIS_H - 4, 1, height);
    if (selected >= 0) {
      const x = xOf(M.t[selected]);
      if (x >= LABEL_W && x <= LABEL_W + plotW()) {
        ctx.fillStyle = COLORS.sel;
        ctx.fillRect(Math.round(x) - 1, AXIS_H - 4, 2, height);
        const a = M.kind[selected] === 0 ? M.answer[selected] : M.answers[selected];
        if (a >= 0) {
          const xa = xOf(M.t[a]);
          ctx.fillStyle = 'rgba(240,180,0,0.18)';
          ctx.fillRect(Math.min(x, xa), AXIS_H - 4, Math.abs(xa - x), height);
        }
      }
    }
  }

  let pending = false;
  function redraw() {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => { pending = false; draw(); });
  }

  function hit(mx, my) {
    const r = Math.floor((my - AXIS_H) / ROW_H);
    if (r < 0 || r >= rows.length || mx < LABEL_W) return -1;
    const row = rows[r];
    if (row.type !== 'lane') return -1;
    const items = laneItems[row.lane];
    const tol = 4;
    let best = -1, bestD = Infinity;
    const from = lowerBound(items, tOf(mx - tol) - laneMaxSpan[row.lane]);
    const check = (k) => {
      const x0 = xOf(M.t[k]);
      const a = M.kind[k] === 0 ? M.answer[k] : -1;
      const x1 = M.kind[k] === 0 ? (a >= 0 ? xOf(M.t[a]) : xOf(M.end)) : x0;
      const d = mx < x0 ? x0 - mx : mx > x1 ? mx - x1 : 0;
      if (d <= tol && (d < bestD || (d === bestD && M.depth[k] > M.depth[best]))) { best = k; bestD = d; }
    };
    for (let j = from; j < items.length && M.t[items[j]] <= tOf(mx + tol); j++) check(items[j]);
    for (const k of laneOpen[row.lane]) check(k);
    return best;
  }

  const tip = el('div', { id: 'timeline-tip', style: 'position:fixed;display:none;pointer-events:none;' +
    'background:#1c2333;color:#fff;font:12px system-ui,sans-serif;padding:4px 8px;border-radius:5px;' +
    'z-index:10;max-width:420px;white-space:pre-wrap' });
  document.body.append(tip);

  function describe(k) {
    const parts = ['#' + (k + 1) + ' ' + (M.methodName(k) || KIND_NAMES[M.kind[k]]), KIND_NAMES[M.kind[k]]];
    if (!Number.isNaN(M.dur[k])) parts.push(fmtDuration(M.dur[k]));
    if (M.kind[k] === 0) parts.push(['', 'ok', 'error', 'no answer'][M.status[k]]);
    return parts.join(' · ');
  }

  function noteAt(mx, my) {
    const r = Math.floor((my - AXIS_H) / ROW_H);
    if (r < 0 || r >= rows.length || rows[r].type !== 'life') return null;
    let best = null, bestD = 6;
    for (const note of rows[r].notes) {
      const d = Math.abs(xOf(note.t) - mx);
      if (d < bestD) { best = note; bestD = d; }
    }
    return best;
  }

  let drag = null;
  canvas.addEventListener('mousedown', (e) => {
    drag = { x: e.clientX, t0: view.t0, t1: view.t1, moved: false };
  });
  window.addEventListener('mousemove', (e) => {
    if (drag) {
      const dx = e.clientX - drag.x;
      if (Math.abs(dx) > 2) drag.moved = true;
      const dt = (dx / plotW()) * (drag.t1 - drag.t0);
      view.t0 = drag.t0 - dt;
      view.t1 = drag.t1 - dt;
      redraw();
      return;
    }
    if (e.target !== canvas) { tip.style.display = 'none'; return; }
    const box = canvas.getBoundingClientRect();
    const mx = e.clientX - box.left, my = e.clientY - box.top;
    const k = hit(mx, my);
    let text = '';
    if (k >= 0) text = describe(k);
    else {
      const note = noteAt(mx, my);
      if (note) {
        const x = note.entry;
        text = fmtTime(note.t) + '  ' + (x.type === 'lifecycle'
          ? x.event + (x.cause ? ' (' + x.cause + ')' : '') + (x.detail ? ': ' + x.detail : '')
          : x.type + ': ' + (x.text || ''));
      }
    }
    if (text) {
      tip.textContent = text;
      tip.style.display = 'block';
      tip.style.left = Math.min(e.clientX + 12, window.innerWidth - 430) + 'px';
      tip.style.top = (e.clientY + 14) + 'px';
    } else {
      tip.style.display = 'none';
    }
  });
  window.addEventListener('mouseup', (e) => {
    if (drag && !drag.moved && e.target === canvas) {
      const box = canvas.getBoundingClientRect();
      const k = hit(e.clientX - box.left, e.clientY - box.top);
      if (k >= 0) onSelect(k);
    }
    drag = null;
  });
  canvas.addEventListener('mouseleave', () => { tip.style.display = 'none'; });
  canvas.addEventListener('wheel', (e) => {
    e.preventDefault();
    const box = canvas.getBoundingClientRect();
    const at = tOf(Math.max(LABEL_W, e.clientX - box.left));
    const factor = Math.pow(1.0015, e.deltaY);
    const minSpan = M.timed ? 1e-5 : 5;
    const range = Math.max(minSpan, (view.t1 - view.t0) * factor);
    const left = (at - view.t0) / (view.t1 - view.t0);
    view.t0 = at - left * range;
    view.t1 = view.t0 + range;
    redraw();
  }, { passive: false });
  canvas.addEventListener('dblclick', () => { view.t0 = full.t0; view.t1 = full.t1; redraw(); });
  window.addEventListener('resize', resize);

  function select(k) {
    selected = k;
    if (k >= 0) {  // keep the selection in view
      const t = M.t[k];
      if (t < view.t0 || t > view.t1) {
        const range = view.t1 - view.t0;
        view.t0 = t - range / 2;
        view.t1 = t + range / 2;
      }
    }
    redraw();
  }

  const legend = document.getElementById('legend');
  for (const [name, color] of [['request', COLORS.req], ['nested', COLORS.nested], ['error / no answer', COLORS.err],
    ['notification', COLORS.note], ['lifecycle', LIFE_COLORS.running]]) {
    legend.append(el('span', null, el('i', { style: 'background:' + color }), name));
  }

  return { resize, select, set onSelect(fn) { onSelect = fn; }, rows };
})();
