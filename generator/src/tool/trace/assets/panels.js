// The side panels besides the message: per-method counts and latency (p50/p90/p99 with a small
// histogram of the durations, log-scaled), and the findings summarised per class.
const Panels = (() => {
  const M = Model;
  let onFilter = () => {};

  // A histogram of durations on log-spaced buckets from the fastest to the slowest.
  function histogram(sorted) {
    const W = 120, H = 26, B = 24;
    const svgNS = 'http://www.w3.org/2000/svg';
    const svg = document.createElementNS(svgNS, 'svg');
    svg.setAttribute('width', W);
    svg.setAttribute('height', H);
    svg.setAttribute('class', 'hist');
    if (!sorted.length) return svg;
    const lo = Math.max(sorted[0], 1e-6), hi = Math.max(sorted[sorted.length - 1], lo * 1.0001);
    const span = Math.log(hi) - Math.log(lo);
    const counts = new Array(B).fill(0);
    for (const d of sorted) {
      const b = span > 0 ? Math.min(B - 1, Math.floor(((Math.log(Math.max(d, lo)) - Math.log(lo)) / span) * B)) : 0;
      counts[b]++;
    }
    const max = Math.max(...counts);
    const bw = W / B;
    counts.forEach((c, b) => {
      if (!c) return;
      const h = Math.max(1.5, (c / max) * (H - 2));
      const r = document.createElementNS(svgNS, 'rect');
      r.setAttribute('x', (b * bw + 0.5).toFixed(1));
      r.setAttribute('y', (H - h).toFixed(1));
      r.setAttribute('width', (bw - 1).toFixed(1));
      r.setAttribute('height', h.toFixed(1));
      r.setAttribute('fill', '#6f8ff0');
      svg.append(r);
    });
    const title = document.createElementNS(svgNS, 'title');
    title.textContent = fmtDuration(sorted[0]) + ' … ' + fmtDuration(sorted[sorted.length - 1]) + ' (log scale)';
    svg.append(title);
    return svg;
  }

  function renderMethods() {
    const box = document.getElementById('tab-methods');
    box.textContent = '';
    const stats = M.methodStats().sort((a, b) => (b.requests + b.notifications) - (a.requests + a.notifications));
    box.append(el('div', { class: 'msg-meta', text: M.timed
      ? 'Latency of each answered request (send to answer). Click a method to filter the table.'
      : 'The transcript has no times (a raw stream): counts only. Click a method to filter the table.' }));
    const table = el('table', { class: 'stats', id: 'methods-table' });
    const head = el('tr', null, el('th', { text: 'method' }), el('th', { class: 'r', text: 'count' }),
      el('th', { class: 'r', text: 'errors' }));
    if (M.timed) {
      for (const h of ['p50', 'p90', 'p99']) head.append(el('th', { class: 'r', text: h }));
      head.append(el('th', { text: 'distribution' }));
    }
    table.append(head);
    for (const s of stats) {
      const d = s.durations;
      const errors = s.errors + s.unanswered;
      const row = el('tr', { class: 'click', 'data-method': s.name, onclick: () => onFilter({ method: String(s.index) }) },
        el('td', { class: 'method', text: s.name, title: s.requests ? 'request' : 'notification' }),
        el('td', { class: 'r', text: (s.requests + s.notifications).toLocaleString('en-US') }),
        el('td', { class: 'r' + (errors ? ' errn' : ' muted'), text: s.requests ? String(errors) : '—' }));
      if (M.timed) {
        for (const p of [50, 90, 99]) row.append(el('td', { class: 'r mono', text: d.length ? fmtDuration(percentile(d, p)) : '' }));
        row.append(el('td', null, d.length ? histogram(d) : ''));
      }
      table.append(row);
    }
    box.append(table);
  }

  function renderFindings() {
    const box = document.getElementById('tab-findings');
    box.textContent = '';
    const classes = M.findingClasses();
    const errors = classes.reduce((a, c) => a + c.errors, 0);
    const warnings = classes.reduce((a, c) => a + c.warnings, 0);
    const badge = document.getElementById('findings-badge');
    badge.textContent = errors + warnings ? String(errors + warnings) : '';
    badge.className = 'badge' + (errors ? '' : ' w');
    if (!classes.length) {
      box.append(el('div', { class: 'empty', text: 'rpckit validate finds nothing wrong in this transcript.' }));
      return;
    }
    box.append(el('div', { class: 'msg-meta', text: plural(errors, 'error') + ', ' + plural(warnings, 'warning') +
      ' (rpckit validate' + (M.meta.strict ? ' --strict' : '') + '). Click a class to list its messages.' }));
    const table = el('table', { class: 'stats', id: 'findings-table' });
    table.append(el('tr', null, el('th', { text: 'class' }), el('th', { class: 'r', text: 'errors' }),
      el('th', { class: 'r', text: 'warnings' }), el('th', { text: 'for example' })));
    for (const c of classes) {
      table.append(el('tr', { class: 'click', 'data-class': c.keyword, onclick: () => onFilter({ findingClass: c.keyword }) },
        el('td', { class: 'method', text: c.keyword || '(none)' }),
        el('td', { class: 'r' + (c.errors ? ' errn' : ' muted'), text: String(c.errors) }),
        el('td', { class: 'r' + (c.warnings ? ' warnn' : ' muted'), text: String(c.warnings) }),
        el('td', { class: 'muted', text: (c.example[1] || '/') + ': ' + c.example[4] })));
    }
    box.append(table);
    if (M.general.length) {
      box.append(el('h3', { text: 'About the transcript as a whole' }));
      const ul = el('ul', { class: 'note-list' });
      for (const f of M.general) ul.append(el('li', { text: f[5] }));
      box.append(ul);
    }
  }

  return { renderMethods, renderFindings, set onFilter(fn) { onFilter = fn; } };
})();
