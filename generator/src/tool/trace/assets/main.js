// Wiring: the header's facts, the filters (method, direction, kind, status, errors only,
// duration over N ms, a class of finding, text search), selection shared by the table, the
// timeline and the message panel, tabs and keyboard navigation.
(() => {
  const M = Model;
  const $ = (id) => document.getElementById(id);

  // Header facts.
  const facts = $('facts');
  const fact = (html, cls) => { const f = el('span', { class: 'fact' + (cls ? ' ' + cls : '') }); f.innerHTML = html; facts.append(f); };
  const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));
  fact('<b>' + esc(M.meta.schema.split('/').slice(-2).join('/')) + '</b>');
  fact(esc(M.meta.format) + (M.meta.from ? ' from ' + esc(M.meta.from) : ''));
  fact('<b>' + M.n.toLocaleString('en-US') + '</b> messages');
  const peers = new Set(M.lanes.map((l) => l.peer).filter((p) => p));
  if (peers.size === 1) fact('peer <b>' + esc([...peers][0]) + '</b>');
  else if (peers.size) fact('<b>' + peers.size + '</b> peers');
  if (M.timed) fact('<b>' + fmtDuration(M.end - M.start) + '</b>');
  const e = M.meta.errors, w = M.meta.warnings;
  fact(e || w ? plural(e, 'error') + ', ' + plural(w, 'warning') : 'valid', e ? 'bad' : w ? 'warn' : 'good');

  // Filters.
  const methodSel = $('f-method');
  M.methods.map((m, i) => [m.name, i]).sort((a, b) => a[0].localeCompare(b[0]))
    .forEach(([name, i]) => methodSel.append(el('option', { value: String(i), text: name })));
  const laneSel = $('f-lane');
  M.lanes.forEach((l, i) => laneSel.append(el('option', { value: String(i), text: M.laneLabel(i) })));
  const state = { q: '', method: '', lane: '', kind: '', status: '', errors: false, minMs: NaN, findingClass: '' };

  function matches(k) {
    if (state.method !== '' && M.method[k] !== Number(state.method)) return false;
    if (state.lane !== '' && M.lane[k] !== Number(state.lane)) return false;
    if (state.kind !== '') {
      if (state.kind === 'r') { if (M.kind[k] !== 2 && M.kind[k] !== 3) return false; }
      else if (M.kind[k] !== Number(state.kind)) return false;
    }
    if (state.status) {
      const s = M.status[k];
      if (state.status === 'ok' && s !== M.STATUS_OK) return false;
      if (state.status === 'error' && s !== M.STATUS_ERROR) return false;
      if (state.status === 'unanswered' && s !== M.STATUS_UNANSWERED) return false;
      if (state.status === 'invalid' && !M.flags[k]) return false;
    }
    if (state.errors && !M.isError(k)) return false;
    if (!Number.isNaN(state.minMs) && !(M.dur[k] * 1000 > state.minMs)) return false;
    if (state.findingClass) {
      const f = M.findings.get(k);
      if (!f || !f.some((x) => x[2] === state.findingClass)) return false;
    }
    if (state.q) {
      const q = state.q, ql = q.toLowerCase();
      if (!(M.methodName(k).toLowerCase().includes(ql) || M.ids[k].includes(q) || M.bodies[k].includes(q))) return false;
    }
    return true;
  }

  function apply() {
    const out = new Int32Array(M.n);
    let c = 0;
    for (let k = 0; k < M.n; k++) if (matches(k)) out[c++] = k;
    const rows = out.subarray(0, c);
    Table.setRows(rows);
    let text = c === M.n ? plural(M.n, 'message') : c.toLocaleString('en-US') + ' of ' + plural(M.n, 'message');
    if (state.findingClass) text += ' · finding class ' + state.findingClass;
    const count = $('count');
    count.textContent = text;
    count.dataset.rows = String(c);
  }

  const read = () => {
    state.q = $('f-search').value.trim();
    state.method = methodSel.value;
    state.lane = laneSel.value;
    state.kind = $('f-kind').value;
    state.status = $('f-status').value;
    state.errors = $('f-errors').checked;
    const ms = $('f-duration').value;
    state.minMs = ms === '' ? NaN : Number(ms);
    apply();
  };
  $('f-search').addEventListener('input', debounce(read, M.n > 20000 ? 250 : 80));
  for (const id of ['f-method', 'f-lane', 'f-kind', 'f-status', 'f-errors']) $(id).addEventListener('change', read);
  $('f-duration').addEventListener('input', debounce(read, 150));
  $('f-reset').addEventListener('click', () => {
    for (const id of ['f-search', 'f-method', 'f-lane', 'f-kind', 'f-status', 'f-duration']) $(id).value = '';
    $('f-errors').checked = false;
    state.findingClass = '';
    read();
  });

  // Selection.
  function select(k) {
    const related = new Set();
    if (k >= 0) {
      if (M.answer[k] >= 0) related.add(M.answer[k]);
      if (M.answers[k] >= 0) related.add(M.answers[k]);
      if (M.parent[k] >= 0) related.add(M.parent[k]);
      for (const c of M.children.get(k) || []) related.add(c);
    }
    Table.select(k, related);
    Timeline.select(k);
    Detail.show(k);
    showTab('message');
    if (k >= 0) history.replaceState(null, '', '#' + (k + 1));
  }
  Table.onSelect = select;
  Timeline.onSelect = select;
  Detail.onSelect = select;

  // Tabs.
  function showTab(name) {
    document.querySelectorAll('#tabs button').forEach((b) => b.classList.toggle('active', b.dataset.tab === name));
    document.querySelectorAll('.tab').forEach((t) => t.classList.toggle('active', t.id === 'tab-' + name));
  }
  document.querySelectorAll('#tabs button').forEach((b) => b.addEventListener('click', () => showTab(b.dataset.tab)));
  Panels.onFilter = (f) => {
    if (f.method !== undefined) methodSel.value = f.method;
    if (f.findingClass !== undefined) state.findingClass = f.findingClass;
    read();
  };

  document.addEventListener('keydown', (ev) => {
    if (ev.target instanceof HTMLInputElement || ev.target instanceof HTMLSelectElement) return;
    if (ev.key === 'ArrowDown' || ev.key === 'j') { Table.step(1); ev.preventDefault(); }
    if (ev.key === 'ArrowUp' || ev.key === 'k') { Table.step(-1); ev.preventDefault(); }
  });

  Panels.renderMethods();
  Panels.renderFindings();
  Timeline.resize();
  read();
  const fromHash = Number(location.hash.slice(1));
  if (fromHash >= 1 && fromHash <= M.n) select(fromHash - 1);
  document.body.dataset.ready = 'true';
})();
