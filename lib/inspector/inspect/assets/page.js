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

// The key-set box: a chain for any key set, as `dispatch-inspect resolve OP --keys SET` prints
// it. The rules are the C++ walk's own, exported as data (D.walk, render_html.h): per key its
// bits, and either the mask its kernel's redispatch keeps or why the chain ends there; the reasons
// that end a chain; a fresh thread's sets; BackendSelect's factory set. This is only the loop.
const W = D.walk && D.walk.keys ? (() => {
  const big = (hex) => BigInt('0x' + hex);
  const w = D.walk;
  return {names: w.keys.map(str), bits: w.bits.map(big), func: w.func.map(big), mask: w.mask,
    end: w.end.map(str), masks: w.masks.map(big), undefined: str(w.undefined[0]),
    undefinedEnd: str(w.undefined[1]), backends: big(w.sets[0]), included: big(w.sets[1]),
    excluded: big(w.sets[2]),
    reasonEnds: new Map(w.reason_ends.map(([r, text, fails]) => [str(r), {text: str(text),
      fails: !!fails}])),
    factoryKey: w.factory.length ? str(w.factory[0]) : '',
    factorySet: w.factory.length ? big(w.factory[1]) : 0n,
    notes: w.notes.map(str), autocast: new Set(w.autocast.map(str)),
    otherKeys: new Set(w.other.map(str)), keyNames: w.names.map(str)};
})() : null;

// The keys a set holds (each holding all its bits), in the runtime's order; the last one wins.
function keysIn(set) {
  const out = [];
  W.bits.forEach((b, i) => { if ((set & b) === b) out.push(i); });
  return out;
}
const highest = (set) => { const k = keysIn(set); return k.length ? k[k.length - 1] : -1; };
const keyName = (i) => (i < 0 ? W.undefined : W.names[i]);
const setText = (set) => `DispatchKeySet(${keysIn(set).map(keyName).join(', ')})`;

function withoutFallthroughs(rows, ks, skipped) {
  let out = ks;
  for (const i of keysIn(ks)) {
    const row = rows.get(W.names[i]);
    if (!row || !row.fallthrough) continue;
    if (highest((ks & W.func[i]) | (ks & W.backends)) !== i) continue;
    out &= ~W.func[i];
    if (skipped) skipped.push(W.names[i]);
  }
  return out;
}

// The edit distance resolve's did-you-mean uses (lib/common/support's edit_distance): insertions,
// deletions, substitutions and swaps of neighbours cost 2, a change of case 1, halved rounding up.
function editDistance(a, b) {
  const cost = (x, y) => (x === y ? 0 : x.toLowerCase() === y.toLowerCase() ? 1 : 2);
  let before = [];
  let previous = Array.from({length: b.length + 1}, (_, j) => 2 * j);
  for (let i = 1; i <= a.length; i++) {
    const row = [2 * i];
    for (let j = 1; j <= b.length; j++) {
      let d = Math.min(previous[j] + 2, row[j - 1] + 2, previous[j - 1] + cost(a[i - 1], b[j - 1]));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d = Math.min(d, before[j - 2] + 2);
      }
      row.push(d);
    }
    before = previous;
    previous = row;
  }
  return Math.ceil(previous[b.length] / 2);
}

// The closest key name to a misspelt one, or '', as resolve ranks them (names.h's closest_name):
// within max(2, length / 3) edits, the nearest, the runtime's own order breaking ties.
function closestKey(name) {
  const limit = Math.max(2, Math.floor(name.length / 3));
  let best = '';
  let bestDistance = limit + 1;
  for (const k of W.keyNames) {
    if (k === name) continue;
    const d = editDistance(name, k);
    if (d < bestDistance) { best = k; bestDistance = d; }
  }
  return best;
}

// "CPU, AutogradCPU" -> key indices, or {error} naming the unknown key and the closest known one.
function parseKeys(text) {
  const keys = [];
  for (const word of text.split(',')) {
    const name = word.trim();
    if (!name) continue;
    const i = W.names.indexOf(name);
    if (i >= 0) { keys.push(i); continue; }
    if (W.otherKeys.has(name)) return {error: W.notes[4].replace('{key}', name)};
    return {error: W.notes[3].replace('{key}', name), suggestion: closestKey(name)};
  }
  return {keys};
}

// The resolution of operator `name` for the key set `text` under a fresh thread's sets, in the
// shape of `resolve --format json` (and `fails`), or {error, suggestion}.
function resolveChain(name, text) {
  const op = OPS.find((o) => o.name === name);
  if (!W || !op) return {error: `no operator '${name}' on this page`};
  const parsed = parseKeys(text);
  if (parsed.error) return parsed;
  let keys = 0n;
  for (const i of parsed.keys) keys |= W.bits[i];
  // The dispatcher's subtraction takes out the excluded set's functionalities and keeps the
  // backend bits (excluding AutogradCPU leaves CPU); what was added and dropped is named key by
  // key, as resolve names it.
  const start = (keys | W.included) & (W.backends | ~W.excluded);
  const given = keysIn(keys);
  const result = keysIn(start);
  const added = result.filter((i) => !given.includes(i));
  const dropped = keysIn(keys | W.included).filter((i) => !result.includes(i));
  const list = (indices) => indices.map(keyName).join(', ');
  const notes = [];
  if (added.length) notes.push(W.notes[0].replace('{keys}', list(added)));
  if (dropped.length) {
    const autocast = dropped.some((i) => W.autocast.has(W.names[i]));
    notes.push(W.notes[1].replace('{keys}', list(dropped))
      .replace('{autocast}', autocast ? W.notes[2] : ''));
  }
  const rows = new Map(op.rows.map((r) => [r.key, r]));
  const skipped = [];
  let ks = withoutFallthroughs(rows, start, skipped);
  const chain = [];
  let end = '';
  let fails = false;
  for (let guard = 0; guard < 256; guard++) {
    const key = highest(ks);
    const entry = rows.get(keyName(key)) || {hasKernel: false, reason: 'missing', site: ''};
    chain.push({key: keyName(key), kernel: entry.hasKernel ? entry.kernel : null,
      reason: entry.reason, site: entry.site || null, key_set: setText(ks)});
    const byReason = W.reasonEnds.get(entry.reason);
    const byKey = key < 0 ? W.undefinedEnd : W.mask[key] < 0 ? W.end[key] : '';
    if (byReason || byKey) {
      fails = !!byReason && byReason.fails;
      end = byReason ? byReason.text.replace('{key}', keyName(key)) : byKey;
      break;
    }
    const next = op.raw.factory && keyName(key) === W.factoryKey ? W.factorySet :
      ks & W.masks[W.mask[key]];
    ks = withoutFallthroughs(rows, next, null);
  }
  return {operator: name, key_set: setText(start), thread_local: notes, skipped,
    winner: chain[0].key, kernel: chain[0].kernel, reason: chain[0].reason, chain, end, fails};
}
window.resolveChain = resolveChain;

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
  const boxes = steps.map(({key, kernel, reason}) => {
    const lines = [key, kernel === null ? '(missing)' : shortKernel(kernel), reason];
    const cat = category(reason, false, kernel !== null);
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
      chainPicture(steps.map(([key, , kernel, reason]) => ({key: str(key),
        kernel: kernel < 0 ? null : str(kernel), reason: str(reason)})), str(end), fails) +
      '</div>';
  }).join('');
}

// The key-set box of an expanded operator: its chain for the keys typed, in resolve's words
// (the key set, what thread-local state did, each step, why it ends), and the preset key sets.
function keyBox(op, text) {
  const presets = D.key_sets.map((k) => `<button type="button" data-keys="${esc(k.keys)}" ` +
    `title="${esc(k.keys)}">${esc(k.label)}</button>`).join(' ');
  return `<div class="keybox"><label>key set <input class="op-keys" size="48" ` +
    `autocomplete="off" list="runtime-keys" value="${esc(text)}" placeholder="CPU,AutogradCPU"` +
    `></label> ${presets}<div class="resolved">${resolvedChain(op, text)}</div></div>`;
}

function resolvedChain(op, text) {
  if (!W) return '<span class="meta">no runtime keys on this page</span>';
  if (!text.trim()) return '<span class="meta">type a key set (comma-separated runtime keys), ' +
    'or pick one of the four above</span>';
  const r = resolveChain(op.name, text);
  if (r.error) {
    return `<div class="fails">${esc(r.error)}</div>` + (r.suggestion ?
      `<div class="meta">did you mean '${esc(r.suggestion)}'? Runtime keys: ` +
      `${esc(W.names.join(', '))}</div>` : '');
  }
  const lines = [`key set: ${r.key_set}`, ...r.thread_local];
  if (r.skipped.length) lines.push(`skipped (fallthrough): ${r.skipped.join(', ')}`);
  r.chain.forEach((s, i) => lines.push(`  ${i + 1}. ${s.key}: ${s.kernel === null ?
    '(missing)' : s.kernel} [${s.reason}] with ${s.key_set}`));
  lines.push(`end: ${r.end}`);
  return `<div class="chain custom" data-keys="${esc(text)}">` +
    `<pre class="resolve">${esc(lines.join('\n'))}</pre>` +
    (r.fails ? '<span class="fails">the call fails</span>' : '') +
    chainPicture(r.chain, r.end, r.fails) + '</div>';
}

// Who calls whom, as trace saw a composite kernel's calls (report on our runtime): an operator
// of this page is a link that opens it.
const CALLED_BY = new Map();
for (const op of D.operators) {
  for (const callee of op.calls || []) {
    if (!CALLED_BY.has(str(callee))) CALLED_BY.set(str(callee), []);
    CALLED_BY.get(str(callee)).push(op.name);
  }
}
const BY_NAME = new Map(OPS.map((op, i) => [op.name, i]));
const opLink = (name) => (BY_NAME.has(name) ?
  `<a class="goto" role="link" tabindex="0" data-goto="${esc(name)}">${esc(name)}</a>` :
  `<span class="mono">${esc(name)}</span>`);

function callLines(raw) {
  let html = '';
  if (raw.calls) {
    html += `<div class="calls">calls: ${raw.calls.length ?
      raw.calls.map((c) => opLink(str(c))).join(', ') : 'no other operator'}</div>`;
  } else if (raw.calls_unknown !== undefined) {
    html += `<div class="calls meta">callees unknown: ${esc(str(raw.calls_unknown))}</div>`;
  }
  const callers = CALLED_BY.get(raw.name);
  if (callers) html += `<div class="calls">called by: ${callers.map(opLink).join(', ')}</div>`;
  return html;
}

function operatorBody(op, f, allKeys) {
  const raw = op.raw;
  return `<div class="body"><div class="mono">${esc(str(raw.schema)) || '(no schema)'}</div>` +
    `<div class="meta">defined at ${esc(str(raw.site)) || '-'}</div>${callLines(raw)}` +
    `<h3>Computed dispatch table <label class="meta"><input type="checkbox" class="all-keys"` +
    `${allKeys ? ' checked' : ''}> every runtime key</label></h3>${matrix(op, f, allKeys)}` +
    `<h3>Registrations</h3>${registrations(op)}` +
    `<h3>Redispatch chains</h3>${keyBox(op, keysInput.value)}${chains(op)}</div>`;
}

const list = document.getElementById('operators');
const input = document.getElementById('filter');
const keysInput = document.getElementById('keys');
const opened = new Set();
let filter = parseFilter('');

function fill(details, allKeys) {
  const op = OPS[+details.dataset.index];
  details.querySelector('.body')?.remove();
  details.insertAdjacentHTML('beforeend', operatorBody(op, filter, allKeys));
  details.querySelector('.all-keys').addEventListener('change',
    (e) => fill(details, e.target.checked));
  const box = details.querySelector('.keybox');
  const redraw = () => {
    box.querySelector('.resolved').innerHTML = resolvedChain(op, box.querySelector('input').value);
  };
  box.querySelector('input').addEventListener('input', redraw);
  for (const b of box.querySelectorAll('button')) {
    b.addEventListener('click', () => { box.querySelector('input').value = b.dataset.keys; redraw(); });
  }
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
  remember();
}, true);

// The address keeps the filter, the page-wide key set and the expanded operators.
function remember() {
  const state = new URLSearchParams();
  state.set('filter', input.value);
  if (keysInput.value) state.set('keys', keysInput.value);
  for (const name of opened) state.append('open', name);
  history.replaceState(null, '', '#' + state.toString().replace(/\+/g, '%20'));
}

// A click on a callee (or caller) opens that operator, clearing a filter that hides it.
function openOperator(name) {
  opened.add(name);
  if (!OPS[BY_NAME.get(name)] || !opMatches(filter, OPS[BY_NAME.get(name)])) input.value = '';
  render();
  remember();
  list.querySelector(`details[data-op="${CSS.escape(name)}"]`)?.scrollIntoView();
}
list.addEventListener('click', (e) => {
  const link = e.target.closest('[data-goto]');
  if (link) { e.preventDefault(); openOperator(link.dataset.goto); }
});
list.addEventListener('keydown', (e) => {
  const link = e.target.closest('[data-goto]');
  if (link && e.key === 'Enter') openOperator(link.dataset.goto);
});

let timer = 0;
for (const box of [input, keysInput]) {
  box.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => { remember(); render(); }, 120);
  });
}
document.addEventListener('keydown', (e) => {
  if (e.key === '/' && document.activeElement !== input) { e.preventDefault(); input.focus(); }
});

// The header: title, what was loaded, the legend (a click filters by that reason).
document.title = D.title;
document.getElementById('title').textContent = D.title;
document.getElementById('about').textContent = `${D.runtime} runtime; ` +
  (D.libraries.length ? `loaded ${D.libraries.join(', ')}` : 'nothing loaded: every operator') +
  `; ${D.generator}` + (D.calls_note ? `. ${D.calls_note}` : '');
document.getElementById('legend').innerHTML = CATEGORIES.map((c) =>
  `<span class="r-${c}" data-reason="${c}">${LABELS[c]}</span>`).join('');
document.getElementById('legend').addEventListener('click', (e) => {
  if (!e.target.dataset.reason) return;
  input.value = `reason:${e.target.dataset.reason}`;
  input.dispatchEvent(new Event('input'));
});

// #filter=WORDS&keys=SET&open=OPERATOR: the filter to start with, the key set of the boxes, and
// operators to expand.
const hash = new URLSearchParams(location.hash.slice(1));
input.value = hash.get('filter') || '';
keysInput.value = hash.get('keys') || '';
if (W) {
  document.getElementById('runtime-keys').innerHTML =
    W.names.map((k) => `<option value="${esc(k)}">`).join('');
}
for (const name of hash.getAll('open')) opened.add(name);
render();
document.body.dataset.operators = String(OPS.length);
