// The message table, virtualised: a spacer as tall as every filtered row, and only the rows in
// view (plus a margin) in the DOM, rebuilt on scroll. Requests show their answer's status and
// their duration; a request made while handling another is indented under it.
const Table = (() => {
  const M = Model;
  const ROW = 24, OVERSCAN = 12;
  const scroll = document.getElementById('table-scroll');
  const spacer = document.getElementById('table-spacer');
  const body = document.getElementById('table-rows');
  const head = document.getElementById('table-head');
  const manyPeers = new Set(M.lanes.map((l) => l.peer)).size > 1;
  const COLS = [
    ['#', '58px', 'num right'], ['time', '86px', 'right'], [manyPeers ? 'peer · direction' : 'direction', 'minmax(110px,1.3fr)', ''],
    ['kind', '66px', ''], ['method', 'minmax(150px,2.2fr)', ''], ['id', 'minmax(40px,0.6fr)', ''],
    ['duration', '80px', 'right'], ['size', '66px', 'right'], ['status', '112px', ''],
  ];
  document.documentElement.style.setProperty('--cols', COLS.map((c) => c[1]).join(' '));
  head.innerHTML = COLS.map((c) => '<span class="' + c[2] + '">' + c[0] + '</span>').join('');

  let rows = new Int32Array(0);
  let selected = -1;
  let related = new Set();
  let onSelect = () => {};

  const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));

  function dirCell(k) {
    const l = M.lanes[M.lane[k]];
    const dir = l.from ? esc(l.from) + ' → ' + esc(l.to || '?') : '?';
    return (manyPeers && l.peer ? '<b>' + esc(l.peer) + '</b> · ' : '') + dir;
  }

  function statusCell(k) {
    let s = '';
    const kd = M.kind[k], st = M.status[k];
    if (kd === 0) s = st === M.STATUS_OK ? '<span class="status ok">✓ ok</span>'
      : st === M.STATUS_ERROR ? '<span class="status error">✗ error</span>'
      : '<span class="status unanswered">no answer</span>';
    else if (kd === 2) s = '<span class="status ok">ok</span>';
    else if (kd === 3) s = '<span class="status error">error</span>';
    else s = '<span class="muted">—</span>';
    const f = M.findings.get(k);
    if (f) {
      const errors = f.filter((x) => x[0]).length;
      s += '<span class="fbadge' + (errors ? '' : ' w') + '" title="validation findings">' +
        (errors ? '⚠ ' + f.length : '△ ' + f.length) + '</span>';
    }
    return s;
  }

  function methodCell(k) {
    const d = M.depth[k];
    const kd = M.kind[k];
    const name = M.methodName(k);
    let prefix = '';
    if (kd === 0 && M.parent[k] >= 0) prefix = '<span class="nest">↳</span>';
    else if ((kd === 2 || kd === 3) && M.answers[k] >= 0) prefix = '<span class="nest">↩</span>';
    const pad = d ? ' style="padding-left:' + (d * 16) + 'px"' : '';
    const shown = name ? esc(name) : '<span class="muted">' + (kd === 4 ? 'unreadable' : '?') + '</span>';
    return '<span class="method c-method"' + pad + ' title="' + esc(name) + '">' + prefix + shown + '</span>';
  }

  function rowHtml(k, pos) {
    const f = M.flags[k];
    const cls = 'row' + (k === selected ? ' selected' : related.has(k) ? ' related' : '') +
      (f & 1 ? ' bad' : f & 2 ? ' warned' : '');
    return '<div class="' + cls + '" data-index="' + k + '" data-frame="' + (k + 1) + '" style="position:absolute;top:' +
      (pos * ROW) + 'px;left:0;right:0">' +
      '<span class="num right c-num">' + (k + 1) + '</span>' +
      '<span class="right mono c-time">' + (M.timed ? M.t[k].toFixed(3) : '') + '</span>' +
      '<span class="dir c-dir">' + dirCell(k) + '</span>' +
      '<span class="c-kind"><span class="kind k' + M.kind[k] + '">' + KIND_SHORT[M.kind[k]] + '</span></span>' +
      methodCell(k) +
      '<span class="mono muted c-id" title="' + esc(M.ids[k]) + '">' + esc(M.ids[k]) + '</span>' +
      '<span class="right mono c-dur">' + fmtDuration(M.dur[k]) + '</span>' +
      '<span class="right muted c-size">' + fmtBytes(M.size[k]) + '</span>' +
      '<span class="c-status">' + statusCell(k) + '</span></div>';
  }

  let lastRange = '';
  function render(force) {
    const top = scroll.scrollTop;
    const h = scroll.clientHeight || 600;
    const first = Math.max(0, Math.floor(top / ROW) - OVERSCAN);
    const last = Math.min(rows.length, Math.ceil((top + h) / ROW) + OVERSCAN);
    const key = first + ':' + last;
    if (!force && key === lastRange) return;
    lastRange = key;
    let html = '';
    for (let p = first; p < last; p++) html += rowHtml(rows[p], p);
    body.innerHTML = html;
  }

  scroll.addEventListener('scroll', () => render(false), { passive: true });
  window.addEventListener('resize', () => render(true));
  body.addEventListener('click', (e) => {
    const row = e.target.closest('.row');
    if (row) onSelect(Number(row.dataset.index));
  });

  function setRows(list) {
    rows = list;
    spacer.style.height = rows.length * ROW + 'px';
    render(true);
  }

  function positionOf(k) {
    let lo = 0, hi = rows.length;  // rows are in frame order
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (rows[mid] < k) lo = mid + 1; else hi = mid;
    }
    return lo < rows.length && rows[lo] === k ? lo : -1;
  }

  function select(k, relatedSet) {
    selected = k;
    related = relatedSet || new Set();
    const pos = positionOf(k);
    if (pos >= 0) {
      const top = pos * ROW, h = scroll.clientHeight;
      if (top < scroll.scrollTop || top + ROW > scroll.scrollTop + h) scroll.scrollTop = Math.max(0, top - h / 3);
    }
    render(true);
  }

  function step(delta) {
    if (!rows.length) return;
    let pos = positionOf(selected);
    if (pos < 0) pos = delta > 0 ? -1 : rows.length;
    pos = Math.max(0, Math.min(rows.length - 1, pos + delta));
    onSelect(rows[pos]);
  }

  return { setRows, select, step, set onSelect(fn) { onSelect = fn; }, get rows() { return rows; } };
})();
