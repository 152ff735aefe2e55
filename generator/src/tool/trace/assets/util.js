'use strict';
// Small helpers shared by the page's parts. The scripts are concatenated in the order
// util, model, timeline, table, detail, panels, main (generator/src/tool/trace/CMakeLists.txt).

const KIND_NAMES = ['request', 'notification', 'result', 'error', 'other'];
const KIND_SHORT = ['req', 'notif', 'result', 'error', 'other'];

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v === undefined || v === null || v === false) continue;
      if (k === 'class') node.className = v;
      else if (k === 'text') node.textContent = v;
      else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? '' : v);
    }
  }
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : String(c));
  }
  return node;
}

// Seconds since the start, to the millisecond.
function fmtTime(t) {
  if (t === null || t === undefined || Number.isNaN(t)) return '';
  return t.toFixed(3) + ' s';
}

// A duration in seconds, as ms below 10 s.
function fmtDuration(d) {
  if (d === null || d === undefined || Number.isNaN(d) || d < 0) return '';
  const ms = d * 1000;
  if (ms < 1) return ms.toFixed(2) + ' ms';
  if (ms < 100) return ms.toFixed(1) + ' ms';
  if (ms < 1000) return Math.round(ms) + ' ms';
  if (d < 100) return d.toFixed(2) + ' s';
  if (d < 3600) return Math.floor(d / 60) + ' min ' + Math.round(d % 60) + ' s';
  return Math.floor(d / 3600) + ' h ' + Math.round((d % 3600) / 60) + ' min';
}

function fmtBytes(n) {
  if (n < 1024) return n + ' B';
  if (n < 1024 * 1024) return (n / 1024).toFixed(1) + ' KB';
  return (n / 1024 / 1024).toFixed(1) + ' MB';
}

function plural(n, word) {
  return n.toLocaleString('en-US') + ' ' + word + (n === 1 ? '' : 's');
}

// JSON pointer tokens ("/a/b~1c" -> ["a", "b/c"]).
function pointerTokens(pointer) {
  if (!pointer) return [];
  return pointer.split('/').slice(1).map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function pointerJoin(base, token) {
  return base + '/' + String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

// The p-th percentile (0..100) of sorted numbers, nearest rank.
function percentile(sorted, p) {
  if (!sorted.length) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

function debounce(fn, ms) {
  let timer = 0;
  return (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
}
