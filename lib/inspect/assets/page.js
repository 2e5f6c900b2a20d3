'use strict';
const D = JSON.parse(document.getElementById('report-data').textContent);
const S = D.strings;
const str = (i) => (i < 0 ? '' : S[i]);
const CATEGORIES = ['direct', 'default-backend', 'math', 'autograd', 'fallback', 'fallthrough',
  'ambiguous', 'missing', 'other'];
const LABELS = {direct: 'direct kernel', 'default-backend': 'default backend',
  math: 'math/composite', autograd: 'autograd', fallback: 'backend fallback',
  fallthrough: 'fallthrough', ambiguous: 'ambiguous', missing: 'missing', other: 'other'};
const SHORT = {direct: 'direct', 'default-backend': 'default', math: 'math', autograd: 'autograd',
  fallback: 'fallback', fallthrough: 'fallthru', ambiguous: 'ambiguous', missing: 'missing',
  other: 'other'};

// The colour class of a table row or chain step: why its kernel was chosen.
function category(reason, fallthrough, hasKernel) {
  if (fallthrough) return 'fallthrough';
  if (reason.startsWith('ambiguous')) return 'ambiguous';
  if (!hasKernel || reason === 'missing') return 'missing';
  switch (reason) {
    case 'kernel': return 'direct';
    case 'default backend kernel': return 'default-backend';
    case 'math kernel': case 'nested kernel': return 'math';
    case 'autograd kernel': return 'autograd';
    case 'backend fallback': return 'fallback';
    default: return 'other';
  }
}

function esc(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({'&': '&amp;', '<': '&lt;', '>': '&gt;',
    '"': '&quot;', "'": '&#39;'})[c]);
}

// "registered at ./build/aten/src/ATen/RegisterCPU.cpp:31085" -> "RegisterCPU.cpp:31085"
function shortKernel(text) {
  const site = text.startsWith('registered at ') ? text.slice(14) : text;
  const slash = site.lastIndexOf('/', site.lastIndexOf(':'));
  return slash >= 0 && site !== text ? site.slice(slash + 1) : site;
}

// Each operator's rows as objects with their category, and how many keys have each category.
const OPS = D.operators.map((op) => {
  const rows = op.rows.map(([key, kernel, reason, site, fallthrough]) => ({
    key: str(key), hasKernel: kernel >= 0, kernel: str(kernel), reason: str(reason),
    site: str(site), fallthrough: !!fallthrough,
    cat: category(str(reason), !!fallthrough, kernel >= 0)}));
  const counts = {};
  for (const r of rows) counts[r.cat] = (counts[r.cat] || 0) + 1;
  counts.missing = (counts.missing || 0) + D.keys.length - rows.length;
  return {raw: op, name: op.name, lower: op.name.toLowerCase(), rows, counts};
});

// The filter: words, all of which must match, case-insensitively. A bare word or op:WORD is part
// of the operator's name; key:NAME (* any text), kernel:TEXT (part of the kernel or its site) and
// reason:WORD (a category such as fallthrough, or part of the reason) must all match one row of
// its table.
function keyPattern(word) {
  const quoted = word.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${quoted}$`, 'i');
}

function parseFilter(text) {
  const f = {op: [], key: [], kernel: [], reason: []};
  for (const word of text.trim().toLowerCase().split(/\s+/)) {
    if (!word) continue;
    const m = /^(op|key|kernel|reason):(.*)$/.exec(word);
    if (!m) f.op.push(word);
    else f[m[1]].push(m[1] === 'key' ? keyPattern(m[2]) : m[2]);
  }
  return f;
}

function rowMatches(f, r) {
  return f.key.every((p) => p.test(r.key)) &&
    f.kernel.every((w) => (r.kernel + ' ' + r.site).toLowerCase().includes(w)) &&
    f.reason.every((w) => r.cat.startsWith(w) || r.reason.toLowerCase().includes(w));
}

function opMatches(f, op) {
  if (!f.op.every((w) => op.lower.includes(w))) return false;
  if (!f.key.length && !f.kernel.length && !f.reason.length) return true;
  if (op.rows.some((r) => rowMatches(f, r))) return true;
  // A key with no entry is a "missing" row, which only reason:missing asks for.
  if (f.kernel.length || !f.reason.length) return false;
  if (!f.reason.every((w) => 'missing'.startsWith(w))) return false;
  const present = new Set(op.rows.map((r) => r.key));
  return D.keys.some((k) => !present.has(S[k]) && f.key.every((p) => p.test(S[k])));
}

// The operator's counts, each labelled ("12 direct", "40 missing"), missing keys counted.
function chips(op) {
  return CATEGORIES.filter((c) => op.counts[c]).map((c) =>
    `<span class="chip r-${c}" title="${op.counts[c]} keys: ${LABELS[c]}">` +
    `${op.counts[c]} ${SHORT[c]}</span>`).join('');
}

// A row that takes no kernel column: a fallthrough or a backend fallback (one kernel per key,
// for every operator: a column each would leave an empty diagonal).
const folded = (r) => r.cat === 'fallthrough' || r.cat === 'fallback';

// The computed table as a key x kernel matrix, each cell coloured by the reason. Kernel columns
// are headed K1, K2, ... (read horizontally), named in a legend under the table; fallthroughs and
// backend fallbacks take one cell across the kernel columns instead of a column each.
function matrix(op, f, allKeys) {
  const kernels = [];
  for (const r of op.rows) {
    if (r.hasKernel && !folded(r) && !kernels.includes(r.kernel)) kernels.push(r.kernel);
  }
  let rows = op.rows;
  if (allKeys) {
    const byKey = new Map(op.rows.map((r) => [r.key, r]));
    rows = D.keys.map((k) => byKey.get(S[k]) ||
      {key: S[k], hasKernel: false, kernel: '', reason: 'missing', site: '', fallthrough: false,
        cat: 'missing'});
  }
  const filtering = f.key.length || f.kernel.length || f.reason.length;
  let html = '<table class="matrix"><tr><th>key</th><th>reason</th>' + kernels.map((k, i) =>
    `<th class="kernel" title="${esc(k)}">K${i + 1}</th>`).join('') + '</tr>';
  for (const r of rows) {
    const hit = filtering && rowMatches(f, r) ? ' class="hit"' : '';
    html += `<tr${hit} data-key="${esc(r.key)}"><th>${esc(r.key)}</th><td class="r-${r.cat}">` +
      `${esc(r.reason)}${r.fallthrough ? ' (fallthrough)' : ''}</td>`;
    if (folded(r) && kernels.length) {
      html += `<td class="cell r-${r.cat}" colspan="${kernels.length}" title="${esc(r.kernel)}">` +
        `${SHORT[r.cat]}: ${esc(shortKernel(r.kernel))}</td></tr>`;
      continue;
    }
    html += kernels.map((k) => (r.hasKernel && k === r.kernel ?
      `<td class="cell r-${r.cat}" title="${esc(r.reason)}${r.site ? ' at ' + esc(r.site) : ''}` +
      `">${SHORT[r.cat]}</td>` : '<td></td>')).join('') + '</tr>';
  }
  html += '</table>';
  if (kernels.length) {
    html += '<ol class="kernels">' + kernels.map((k) =>
      `<li title="${esc(k)}">${esc(shortKernel(k) || '(unnamed)')}</li>`).join('') + '</ol>';
  }
  return html;
}

// Every registered kernel: its key, where it was registered, its debug text where that says more
// than the site (libtorch's says "registered at SITE"), the schema inferred from its C++ signature.
function registrations(op) {
  const regs = op.raw.regs.map(([key, debug, site, inferred, kinds, flags]) => ({key: str(key),
    debug: str(debug), site: str(site), inferred: str(inferred), kinds: str(kinds), flags}));
  const debugs = regs.some((r) => r.debug !== 'registered at ' + r.site);
  let html = '<table class="regs"><tr><th>key</th><th>registered at</th>' +
    (debugs ? '<th>kernel</th>' : '') + '<th>inferred schema</th><th>kinds</th></tr>';
  for (const r of regs) {
    const inactive = ' class="inactive" title="inactive: a newer registration won"';
    html += `<tr${r.flags & 2 ? inactive : ''}><td>${esc(r.key)}${r.flags & 1 ? ' [alias]' : ''}` +
      `</td><td>${esc(r.site) || '-'}</td>${debugs ? `<td>${esc(r.debug)}</td>` : ''}` +
      `<td>${esc(r.inferred) || '-'}</td><td>${esc(r.kinds)}</td></tr>`;
  }
  return html + '</table>';
}

// One redispatch chain as a picture: a box per step (key, kernel, reason), arrows between them,
// then why the chain ends.
function chainPicture(steps, end, fails) {
  const boxes = steps.map(([key, , kernel, reason]) => {
    const lines = [str(key), kernel < 0 ? '(missing)' : shortKernel(str(kernel)), str(reason)];
    const cat = category(str(reason), false, kernel >= 0);
    return {lines, cat, width: 16 + 7 * Math.max(...lines.map((l) => l.length))};
  });
  const gap = 76;
  let x = 4;
  let svg = '';
  boxes.forEach((b, i) => {
    svg += `<rect class="r-${b.cat}" x="${x}" y="4" rx="4" width="${b.width}" height="52"/>`;
    b.lines.forEach((l, j) => {
      const weight = j ? '' : ' font-weight="bold"';
      svg += `<text x="${x + 8}" y="${20 + 15 * j}"${weight}>${esc(l)}</text>`;
    });
    x += b.width;
    const label = i + 1 < boxes.length ? 'redispatch' : '';
    svg += `<line x1="${x}" y1="30" x2="${x + gap - 6}" y2="30" stroke="#555"/>` +
      `<path d="M${x + gap - 6},26 L${x + gap},30 L${x + gap - 6},34 z" fill="#555"/>` +
      `<text x="${x + 4}" y="24" font-size="9">${label}</text>`;
    x += gap;
  });
  svg += `<text x="${x + 4}" y="34"${fails ? ' fill="#b00000" font-weight="bold"' : ''}>` +
    `${esc(end)}</text>`;
  const width = x + 12 + 7 * end.length;
  return `<svg width="${width}" height="60" viewBox="0 0 ${width} 60" role="img">${svg}</svg>`;
}

function chains(op) {
  return op.raw.chains.map(([set, skipped, steps, end, fails], i) => {
    const keySet = D.key_sets[i];
    return `<div class="chain" data-key-set="${esc(keySet.label)}"><b>${esc(keySet.label)}</b> ` +
      `<span class="meta">(${esc(keySet.keys)}) dispatches on ${esc(str(set))}` +
      (skipped.length ? `; skips fallthrough ${esc(skipped.map(str).join(', '))}` : '') +
      `</span>${fails ? ' <span class="fails">the call fails</span>' : ''}` +
      chainPicture(steps, str(end), fails) + '</div>';
  }).join('');
}

function operatorBody(op, f, allKeys) {
  const raw = op.raw;
  return `<div class="body"><div class="mono">${esc(str(raw.schema)) || '(no schema)'}</div>` +
    `<div class="meta">defined at ${esc(str(raw.site)) || '-'}</div>` +
    `<h3>Computed dispatch table <label class="meta"><input type="checkbox" class="all-keys"` +
    `${allKeys ? ' checked' : ''}> every runtime key</label></h3>${matrix(op, f, allKeys)}` +
    `<h3>Registrations</h3>${registrations(op)}` +
    `<h3>Redispatch chains</h3>${chains(op)}</div>`;
}

const list = document.getElementById('operators');
const input = document.getElementById('filter');
const opened = new Set();
let filter = parseFilter('');

function fill(details, allKeys) {
  const op = OPS[+details.dataset.index];
  details.querySelector('.body')?.remove();
  details.insertAdjacentHTML('beforeend', operatorBody(op, filter, allKeys));
  details.querySelector('.all-keys').addEventListener('change',
    (e) => fill(details, e.target.checked));
}

function render() {
  filter = parseFilter(input.value);
  const shown = [];
  OPS.forEach((op, i) => { if (opMatches(filter, op)) shown.push(i); });
  list.innerHTML = shown.map((i) => `<details class="op" data-op="${esc(OPS[i].name)}" ` +
    `data-index="${i}"${opened.has(OPS[i].name) ? ' open' : ''}><summary>${esc(OPS[i].name)}` +
    `${chips(OPS[i])}</summary></details>`).join('');
  for (const d of list.querySelectorAll('details[open]')) fill(d, false);
  document.getElementById('count').textContent = `${shown.length} of ${OPS.length} operators`;
  document.body.dataset.shown = String(shown.length);
}

list.addEventListener('toggle', (e) => {
  const d = e.target;
  if (d.open) { opened.add(d.dataset.op); if (!d.querySelector('.body')) fill(d, false); }
  else opened.delete(d.dataset.op);
}, true);

let timer = 0;
input.addEventListener('input', () => {
  clearTimeout(timer);
  timer = setTimeout(() => {
    history.replaceState(null, '', '#filter=' + encodeURIComponent(input.value));
    render();
  }, 120);
});
document.addEventListener('keydown', (e) => {
  if (e.key === '/' && document.activeElement !== input) { e.preventDefault(); input.focus(); }
});

// The header: title, what was loaded, the legend (a click filters by that reason).
document.title = D.title;
document.getElementById('title').textContent = D.title;
document.getElementById('about').textContent = `${D.runtime} runtime; ` +
  (D.libraries.length ? `loaded ${D.libraries.join(', ')}` : 'nothing loaded: every operator') +
  `; ${D.generator}`;
document.getElementById('legend').innerHTML = CATEGORIES.map((c) =>
  `<span class="r-${c}" data-reason="${c}">${LABELS[c]}</span>`).join('');
document.getElementById('legend').addEventListener('click', (e) => {
  if (!e.target.dataset.reason) return;
  input.value = `reason:${e.target.dataset.reason}`;
  input.dispatchEvent(new Event('input'));
});

// #filter=WORDS&open=OPERATOR: the filter to start with, and operators to expand.
const hash = new URLSearchParams(location.hash.slice(1));
input.value = hash.get('filter') || '';
for (const name of hash.getAll('open')) opened.add(name);
render();
document.body.dataset.operators = String(OPS.length);
