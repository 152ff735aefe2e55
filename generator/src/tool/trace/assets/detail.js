// The selected message: what it is, what it answers or caused, its findings (the words of
// `rpckit validate`), and its payload as a collapsible tree with the schema's description of
// each member beside it; a finding's JSON pointer is highlighted in the tree.
const Detail = (() => {
  const M = Model;
  const D = M.docs || { nodes: [], methods: {} };
  const box = document.getElementById('tab-message');
  let onSelect = () => {};
  const EAGER_NODES = 400;
  const responseRoots = new Map();  // method -> a node for its responses (result, error)  // a bigger payload renders deeper levels when opened

  // Schema nodes: a node and the ones it stands for ($ref, allOf/anyOf/oneOf branches).
  function expand(indices) {
    const out = [], seen = new Set();
    const queue = [...indices];
    while (queue.length && out.length < 64) {
      const i = queue.shift();
      if (i === undefined || i < 0 || seen.has(i) || !D.nodes[i]) continue;
      seen.add(i);
      out.push(i);
      for (const x of D.nodes[i].x || []) queue.push(x);
    }
    return out;
  }

  function childNodes(indices, token) {
    const out = [];
    const isIndex = /^\d+$/.test(token);
    for (const i of expand(indices)) {
      const node = D.nodes[i];
      if (node.p && Object.prototype.hasOwnProperty.call(node.p, token)) out.push(node.p[token]);
      else if (isIndex && node.i !== undefined) out.push(node.i);
      else if (!isIndex && node.a !== undefined) out.push(node.a);
    }
    return out;
  }

  function required(indices, token) {
    return expand(indices).some((i) => (D.nodes[i].r || []).includes(token));
  }

  function docOf(indices) {
    let d = '', t = '', name = '', e = null, c = null, f = '';
    for (const i of expand(indices)) {
      const node = D.nodes[i];
      if (!d && node.d) d = node.d;
      if (!t && node.t) t = node.t;
      if (!name && node.n) name = node.n;
      if (!e && node.e) e = node.e;
      if (c === null && node.c !== undefined) c = node.c;
      if (!f && node.f) f = node.f;
    }
    return { d, t, name, e, c, f };
  }

  function rootFor(k) {
    const name = M.methodName(k);
    const m = D.methods[name];
    const kd = M.kind[k];
    if (M.meta.exchange) return m ? [m.env] : [];
    if (kd === 0 || kd === 1) return m ? [m.env] : [];
    // A response: its own synthetic root, result and error described by the schema; the result
    // is x-result-when's when the request's params carry one of its members (not null).
    let res = m ? m.res : undefined;
    let key = name;
    const req = M.answers[k];
    if (m && m.rw && req >= 0) {
      const sent = M.parsed(req);
      const params = sent.ok && sent.value && sent.value.params;
      const chosen = params && typeof params === 'object' && !Array.isArray(params)
        ? m.rw.find(([member]) => params[member] !== undefined && params[member] !== null)
        : undefined;
      if (chosen) {
        res = chosen[1];
        key = name + '\u0000' + chosen[0];
      }
    }
    if (!responseRoots.has(key)) {
      const synthetic = { p: {} };
      if (res !== undefined) synthetic.p.result = res;
      if (D.error !== undefined) synthetic.p.error = D.error;
      D.nodes.push(synthetic);
      responseRoots.set(key, D.nodes.length - 1);
    }
    return [responseRoots.get(key)];
  }

  function valueHtml(v) {
    const span = (cls, text) => el('span', { class: cls, text });
    if (v === null) return span('null', 'null');
    if (typeof v === 'string') return span('str', JSON.stringify(v));
    if (typeof v === 'number') return span('numv', String(v));
    if (typeof v === 'boolean') return span('bool', String(v));
    return null;
  }

  function countNodes(v, limit) {
    let n = 0;
    const stack = [v];
    while (stack.length && n < limit) {
      const x = stack.pop();
      n++;
      if (x && typeof x === 'object') for (const y of Object.values(x)) stack.push(y);
    }
    return n;
  }

  // One member: its line (key, value or summary) and the description column.
  function renderNode(key, value, pointer, schema, parentSchema, depth, eager) {
    const node = el('div', { class: 'node', 'data-pointer': pointer });
    const line = el('div', { class: 'line' });
    const isObj = value !== null && typeof value === 'object';
    const toggle = el('span', { class: 'toggle', text: isObj ? '▾' : '' });
    line.append(el('span', { style: 'display:inline-block;width:' + depth * 14 + 'px' }), toggle);
    if (key !== null) line.append(el('span', { class: 'key', text: typeof key === 'number' ? key : JSON.stringify(key) }), el('span', { class: 'punct', text: ': ' }));
    if (isObj) {
      const entries = Array.isArray(value) ? value.length : Object.keys(value).length;
      line.append(el('span', { class: 'punct', text: Array.isArray(value) ? '[' : '{' }),
        el('span', { class: 'summary', text: ' ' + entries + (Array.isArray(value) ? ' item' : ' member') + (entries === 1 ? '' : 's') + ' ' }),
        el('span', { class: 'punct', text: Array.isArray(value) ? ']' : '}' }));
    } else {
      line.append(valueHtml(value));
    }
    const desc = el('div', { class: 'desc' });
    if (key !== null && schema.length) {
      const doc = docOf(schema);
      const bits = [];
      if (doc.name) bits.push(doc.name);
      else if (doc.t) bits.push(doc.t + (doc.f ? ' (' + doc.f + ')' : ''));
      if (typeof key === 'string' && parentSchema && required(parentSchema, key)) bits.push('required');
      if (bits.length) desc.append(el('span', { class: 'ty', text: bits.join(' · ') }));
      if (doc.d && !(typeof key === 'number' && key > 0)) desc.append(doc.d);  // an array's items: once
      else if (doc.e) desc.append(el('span', { class: 'ty', text: 'one of ' + doc.e.join(', ') }));
    }
    node.append(line, desc);
    if (isObj) {
      const kids = el('div', { class: 'children' });
      node.append(kids);
      let filled = false;
      const fill = () => {
        if (filled) return;
        filled = true;
        const items = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
        for (const [k2, v2] of items) {
          kids.append(renderNode(k2, v2, pointerJoin(pointer, k2), childNodes(schema, String(k2)), schema, depth + 1, eager && depth < 6));
        }
      };
      node._fill = fill;
      if (eager) fill(); else node.classList.add('collapsed');
      toggle.addEventListener('click', () => {
        fill();
        node.classList.toggle('collapsed');
        toggle.textContent = node.classList.contains('collapsed') ? '▸' : '▾';
      });
      if (!eager) toggle.textContent = '▸';
    }
    return node;
  }

  function renderTree(k) {
    const p = M.parsed(k);
    if (!p.ok) return el('pre', { class: 'tree line', text: M.bodies[k] });
    const tree = el('div', { class: 'tree' });
    const eager = countNodes(p.value, EAGER_NODES) < EAGER_NODES;
    tree.append(renderNode(null, p.value, '', rootFor(k), null, 0, true));
    if (!eager) {  // only the first levels
      tree.querySelectorAll('.node').forEach((n) => {
        if (n._fill && n.dataset.pointer.split('/').length > 3) n.classList.add('collapsed');
      });
    }
    return tree;
  }

  // The deepest node on the pointer's way, opened up to it.
  function nodeAt(tree, pointer) {
    let current = tree.querySelector('.node[data-pointer=""]');
    let at = '';
    for (const token of pointerTokens(pointer)) {
      if (!current) break;
      if (current._fill) {
        current._fill();
        current.classList.remove('collapsed');
      }
      const next = pointerJoin(at, token);
      const child = [...current.querySelectorAll(':scope > .children > .node')].find((n) => n.dataset.pointer === next);
      if (!child) break;
      current = child;
      at = next;
    }
    return current;
  }

  function link(k, role) {
    return el('a', { class: 'msg', 'data-role': role, 'data-frame': k + 1, text: '#' + (k + 1) + ' ' + (M.methodName(k) || KIND_NAMES[M.kind[k]]),
      onclick: () => onSelect(k) });
  }

  function findingsList(k, tree) {
    const list = M.findings.get(k);
    if (!list || !list.length) return null;
    const ul = el('ul', { class: 'findings' });
    for (const f of list) {
      const [error, instance, , , message, text] = f;
      const li = el('li', { class: error ? '' : 'w' },
        el('div', { class: 'what' }, el('span', { class: 'ptr', text: instance || '/' }), ' ', message),
        el('div', { class: 'text', text }));
      ul.append(li);
      const node = tree ? nodeAt(tree, instance) : null;
      if (node) {
        node.classList.add(error ? 'hl' : 'hlw');
        li.addEventListener('click', () => node.scrollIntoView({ block: 'center', behavior: 'smooth' }));
      }
    }
    return ul;
  }

  function show(k) {
    box.textContent = '';
    if (k < 0) {
      box.append(el('div', { class: 'empty', text: 'Select a message in the table or on the timeline.' }));
      return;
    }
    const kd = M.kind[k];
    const name = M.methodName(k);
    const lane = M.lanes[M.lane[k]];
    box.append(el('div', { class: 'msg-head' },
      el('span', { class: 'kind k' + kd, text: KIND_SHORT[kd] }),
      el('span', { class: 'method', id: 'detail-method', text: name || (kd === 4 ? 'unreadable frame' : 'response') }),
      el('span', { class: 'muted', text: '#' + (k + 1) })));
    const facts = [];
    if (lane.from) facts.push(lane.from + ' → ' + (lane.to || '?') + (lane.peer ? ' (' + lane.peer + ')' : ''));
    if (M.timed) facts.push('at ' + fmtTime(M.t[k]));
    facts.push(fmtBytes(M.size[k]));
    if (M.ids[k]) facts.push('id ' + M.ids[k]);
    box.append(el('div', { class: 'msg-meta', text: facts.join(' · ') }));

    const dl = el('dl', { class: 'links' });
    const add = (label, ...value) => dl.append(el('dt', { text: label }), el('dd', null, ...value));
    if (kd === 0) {
      const a = M.answer[k];
      if (a >= 0) {
        add('answer', link(a, 'answer-link'), ' ', el('span', { class: 'status ' + (M.kind[a] === 3 ? 'error' : 'ok'), text: M.kind[a] === 3 ? 'error' : 'ok' }),
          M.timed ? el('span', { class: 'muted' }, ' after ', el('b', { 'data-role': 'duration', text: fmtDuration(M.dur[k]) })) : null);
      } else {
        add('answer', el('span', { class: 'status unanswered', text: 'none by the end of the transcript' }));
      }
    }
    if ((kd === 2 || kd === 3) && M.answers[k] >= 0) {
      add('answers', link(M.answers[k], 'request-link'),
        M.timed ? el('span', { class: 'muted' }, ' sent ', el('b', { 'data-role': 'duration', text: fmtDuration(M.dur[k]) }), ' before') : null);
    }
    if (M.parent[k] >= 0) add('made while handling', link(M.parent[k], 'parent-link'));
    const kids = M.children.get(k);
    if (kids) {
      const dd = el('span');
      kids.forEach((c, i) => {
        if (i) dd.append(', ');
        dd.append(link(c, 'child-link'));
        if (!Number.isNaN(M.dur[c])) dd.append(el('span', { class: 'muted', text: ' ' + fmtDuration(M.dur[c]) }));
      });
      add('nested calls', dd);
    }
    if (dl.childElementCount) box.append(dl);

    const docs = D.methods[name];
    if (docs && docs.d && (kd === 0 || kd === 1 || M.meta.exchange)) box.append(el('div', { class: 'doc', text: docs.d }));

    const tree = renderTree(k);
    const findings = findingsList(k, tree.classList.contains('tree') ? tree : null);
    if (findings) box.append(el('h3', { text: 'Findings of rpckit validate' }), findings);
    box.append(el('h3', { text: kd === 0 || kd === 1 ? 'Message' : kd === 4 ? 'Frame' : 'Response' }), tree);

    // The other half of the exchange.
    const other = kd === 0 ? M.answer[k] : (kd === 2 || kd === 3) ? M.answers[k] : -1;
    if (other >= 0) {
      const otherTree = renderTree(other);
      const otherFindings = findingsList(other, otherTree.classList.contains('tree') ? otherTree : null);
      box.append(el('h3', null, kd === 0 ? 'Answer ' : 'Request ', link(other, 'pair-link')));
      if (otherFindings) box.append(otherFindings);
      box.append(otherTree);
    }
    box.scrollTop = 0;
  }

  return { show, set onSelect(fn) { onSelect = fn; } };
})();
