'use strict';
// The report page (after walk.js, which decodes the data and follows chains): the operator list,
// its filter, each operator's table, registrations and chains, and the call form whose chain every
// open operator shows.
const CATEGORIES = ['direct', 'default-backend', 'math', 'autograd', 'fallback', 'fallthrough',
  'ambiguous', 'fails', 'missing', 'other'];
const LABELS = {direct: 'direct kernel', 'default-backend': 'default backend',
  math: 'math/composite', autograd: 'autograd', fallback: 'backend fallback',
  fallthrough: 'fallthrough', ambiguous: 'ambiguous', fails: 'would fail',
  missing: 'no kernel (a backend it is not built for)', other: 'other'};
const SHORT = {direct: 'direct', 'default-backend': 'default', math: 'math', autograd: 'autograd',
  fallback: 'fallback', fallthrough: 'fallthru', ambiguous: 'ambiguous', fails: 'would fail',
  missing: 'no kernel', other: 'other'};

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

// Each operator's rows as objects with their category; the empty entries a call it needs would
// reach (the C++ audit's failing_entries: `needs`); how many keys have each category. An empty
// entry is "no kernel", neutral: most are backends the operator is not built for.
const OPS = D.operators.map((op) => {
  const needs = new Map(op.needs.map(([key, why]) => [str(key), str(why)]));
  const rows = op.rows.map(([key, kernel, reason, site, fallthrough]) => ({
    key: str(key), hasKernel: kernel >= 0, kernel: str(kernel), reason: str(reason),
    site: str(site), fallthrough: !!fallthrough,
    cat: category(str(reason), !!fallthrough, kernel >= 0)}));
  const counts = {};
  for (const r of rows) counts[r.cat] = (counts[r.cat] || 0) + 1;
  const present = new Set(rows.map((r) => r.key));
  counts.fails = needs.size;
  counts.missing = D.keys.filter((k) => !present.has(S[k]) && !needs.has(S[k])).length;
  return {raw: op, name: op.name, lower: op.name.toLowerCase(), rows, counts, needs};
});

// The filter: words, all of which must match, case-insensitively. A bare word or op:WORD is part
// of the operator's name; key:NAME (* any text), kernel:TEXT (part of the kernel or its site) and
// reason:WORD (a category such as fallthrough, or part of the reason) must all match one row of
// its table; reason:fail asks for the operators with an entry that would fail.
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

// The rows of every runtime key: an empty one is "missing" (red "would fail" when needed).
function allRows(op) {
  const byKey = new Map(op.rows.map((r) => [r.key, r]));
  return D.keys.map((k) => byKey.get(S[k]) || {key: S[k], hasKernel: false, kernel: '',
    reason: 'missing', site: '', fallthrough: false, cat: op.needs.has(S[k]) ? 'fails' : 'missing',
    why: op.needs.get(S[k]) || ''});
}

function opMatches(f, op) {
  if (!f.op.every((w) => op.lower.includes(w))) return false;
  if (!f.key.length && !f.kernel.length && !f.reason.length) return true;
  if (op.rows.some((r) => rowMatches(f, r))) return true;
  // A key with no entry is a "missing" row, which only reason:missing or reason:fail asks for.
  if (f.kernel.length || !f.reason.length) return false;
  return allRows(op).some((r) => !r.hasKernel && rowMatches(f, {...r, reason: 'missing'}));
}

// The operator's counts in words ("12 direct", "2 would fail", "35 no kernel").
function chips(op) {
  return CATEGORIES.filter((c) => op.counts[c]).map((c) => {
    const title = c === 'fails' ? [...op.needs].map(([k, why]) => `${k}: ${why}`).join('\n') :
      c === 'missing' ? `${op.counts[c]} keys without a kernel: a call with such a tensor ` +
        'fails, as it should for a backend the operator is not built for' :
        `${op.counts[c]} keys: ${LABELS[c]}`;
    return `<span class="chip r-${c}" title="${esc(title)}">${op.counts[c]} ${SHORT[c]}</span>`;
  }).join('');
}

// A row that takes no kernel column: a fallthrough or a backend fallback (one kernel per key,
// for every operator: a column each would leave an empty diagonal).
const folded = (r) => r.cat === 'fallthrough' || r.cat === 'fallback';

// The computed table as a key x kernel matrix, each cell coloured by the reason. Each kernel
// column is headed by the kernel's short name (its file and line for libtorch), written upwards;
// fallthroughs and backend fallbacks take one cell across the kernel columns instead. The
// entries that would fail are rows too (red); "every runtime key" adds the other empty ones.
function matrix(op, f, allKeys) {
  const kernels = [];
  for (const r of op.rows) {
    if (r.hasKernel && !folded(r) && !kernels.includes(r.kernel)) kernels.push(r.kernel);
  }
  const rows = allRows(op).filter((r) => r.hasKernel || r.cat === 'fails' || allKeys);
  const filtering = f.key.length || f.kernel.length || f.reason.length;
  let html = '<table class="matrix"><tr><th>key</th><th>reason</th>' + kernels.map((k) =>
    `<th class="kernel" title="${esc(k)}"><span>${esc(shortKernel(k) || '(unnamed)')}</span></th>`)
    .join('') + '</tr>';
  for (const r of rows) {
    const hit = filtering && rowMatches(f, r) ? ' class="hit"' : '';
    const reason = r.cat === 'fails' ? 'missing: would fail' : r.reason;
    html += `<tr${hit} data-key="${esc(r.key)}"><th>${esc(r.key)}</th><td class="r-${r.cat}"` +
      `${r.why ? ` title="${esc(r.why)}"` : ''}>${esc(reason)}` +
      `${r.fallthrough ? ' (fallthrough)' : ''}</td>`;
    if (folded(r) && kernels.length) {
      html += `<td class="cell r-${r.cat}" colspan="${kernels.length}" title="${esc(r.kernel)}">` +
        `${SHORT[r.cat]}: ${esc(shortKernel(r.kernel))}</td></tr>`;
      continue;
    }
    html += kernels.map((k) => (r.hasKernel && k === r.kernel ?
      `<td class="cell r-${r.cat}" title="${esc(r.reason)}${r.site ? ' at ' + esc(r.site) : ''}` +
      `">${SHORT[r.cat]}</td>` : '<td></td>')).join('') + '</tr>';
  }
  return html + '</table>';
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
    return {lines, cat: cat === 'missing' ? 'fails' : cat,
      width: 16 + 7 * Math.max(...lines.map((l) => l.length))};
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

// A call as resolve's options, for the command line it stands for.
function callOptions(call) {
  const c = callOf(call);
  const words = [];
  if (c.keys) words.push('--keys', c.keys);
  for (const d of c.tensors) words.push('--tensor', d);
  for (const d of c.inference_tensors) words.push('--inference-tensor', d);
  if (c.device) words.push('--device', c.device);
  for (const d of c.autocast) words.push('--autocast', d);
  if (c.inference_mode) words.push('--inference-mode');
  if (c.include) words.push('--include', c.include);
  if (c.exclude) words.push('--exclude', c.exclude);
  return words.join(' ');
}
const command = (op, call) => `dispatch-inspect resolve ${op.name} ${callOptions(call)}` +
  (D.runtime === 'schemac' ? '' : ` --runtime ${D.runtime}`);

// A preset as this operator takes it: an operator without tensor arguments takes the tensor's
// device as its options' device (with a Device argument), as the C++ presets did.
const presetCall = (op, p) => (op.raw.factory ? (op.raw.device ? p.factory : p.bare) : p.call);

// The presets' chains, embedded by the C++ walk: a box per step and why the chain ends.
function presetChains(op) {
  return op.raw.chains.map(([set, skipped, steps, end, fails], i) => {
    const preset = D.presets[i];
    const call = presetCall(op, preset);
    return `<div class="chain" data-preset="${esc(preset.label)}"><b>${esc(preset.label)}</b> ` +
      `<button type="button" class="use" data-preset="${i}" title="put this call in the call ` +
      `form">use</button> <span class="meta">${esc(callOptions(call)) || '(no options)'}: ` +
      `dispatches on ${esc(str(set))}` +
      (skipped.length ? `; skips fallthrough ${esc(skipped.map(str).join(', '))}` : '') +
      `</span>${fails ? ' <span class="fails">the call fails</span>' : ''}` +
      chainPicture(steps.map(([key, , kernel, reason]) => ({key: str(key),
        kernel: kernel < 0 ? null : str(kernel), reason: str(reason)})), str(end), fails) +
      '</div>';
  }).join('');
}

// The chain of the call form's call, in resolve's words (the key set, what thread-local state
// did, each step, why it ends, notes), with its command line and picture.
function formChain(op, call) {
  if (!W) return '<span class="meta">no runtime keys on this page</span>';
  const r = resolveChain(op.name, call);
  const head = `<div class="mono command">$ ${esc(command(op, call))}</div>`;
  if (r.error) {
    return head + `<div class="fails">${esc(r.error)}</div>` + (r.suggestion ?
      `<div class="meta">did you mean '${esc(r.suggestion)}'? Runtime keys: ` +
      `${esc(W.names.join(', '))}</div>` : '');
  }
  const lines = [`key set: ${r.key_set}`, ...r.thread_local];
  if (r.skipped.length) lines.push(`skipped (fallthrough): ${r.skipped.join(', ')}`);
  r.chain.forEach((s, i) => lines.push(`  ${i + 1}. ${s.key}: ${s.kernel === null ?
    '(missing)' : s.kernel} [${s.reason}] with ${s.key_set}`));
  lines.push(`end: ${r.end}`, ...r.notes.map((n) => `note: ${n}`));
  return `<div class="chain custom">${head}<pre class="resolve">${esc(lines.join('\n'))}</pre>` +
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
    `<h3>Redispatch chains</h3><div class="resolved">${formChain(op, formCall())}</div>` +
    `${presetChains(op)}</div>`;
}

const list = document.getElementById('operators');
const input = document.getElementById('filter');
const form = document.getElementById('call');
const field = (name) => form.elements[name];
const opened = new Set();
let filter = parseFilter('');

// The call form as resolve's options (wire.h's CallSpec), and the other way round.
function formCall() {
  const tensor = field('tensor').value;
  const inference = field('inference_tensor').checked;
  return {keys: field('keys').value.trim(), tensors: tensor && !inference ? [tensor] : [],
    inference_tensors: tensor && inference ? [tensor] : [],
    include: field('include').value.trim(), exclude: field('exclude').value.trim(),
    autocast: [...form.querySelectorAll('input[name=autocast]:checked')].map((b) => b.value),
    inference_mode: field('inference_mode').checked, device: field('device').value};
}
function setForm(call) {
  const c = callOf(call);
  field('keys').value = c.keys;
  field('tensor').value = c.tensors[0] || c.inference_tensors[0] || '';
  field('inference_tensor').checked = c.inference_tensors.length > 0;
  field('include').value = c.include;
  field('exclude').value = c.exclude;
  for (const b of form.querySelectorAll('input[name=autocast]')) b.checked = c.autocast.includes(b.value);
  field('inference_mode').checked = c.inference_mode;
  field('device').value = c.device;
}

function fill(details, allKeys) {
  const op = OPS[+details.dataset.index];
  details.querySelector('.body')?.remove();
  details.insertAdjacentHTML('beforeend', operatorBody(op, filter, allKeys));
  details.querySelector('.all-keys').addEventListener('change',
    (e) => fill(details, e.target.checked));
  for (const b of details.querySelectorAll('button.use')) {
    b.addEventListener('click', () => {
      setForm(presetCall(op, D.presets[+b.dataset.preset]));
      changed();
    });
  }
}

function redrawChains() {
  for (const d of list.querySelectorAll('details[open]')) {
    d.querySelector('.resolved').innerHTML = formChain(OPS[+d.dataset.index], formCall());
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

// The address keeps the filter, the call form and the expanded operators.
const FORM_WORDS = ['keys', 'tensor', 'device', 'include', 'exclude'];
function remember() {
  const state = new URLSearchParams();
  state.set('filter', input.value);
  const call = formCall();
  for (const name of FORM_WORDS) if (field(name).value) state.set(name, field(name).value.trim());
  if (call.inference_tensors.length) state.set('inference_tensor', '1');
  for (const d of call.autocast) state.append('autocast', d);
  if (call.inference_mode) state.set('inference_mode', '1');
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
input.addEventListener('input', () => {
  clearTimeout(timer);
  timer = setTimeout(() => { remember(); render(); }, 120);
});
const changed = () => { remember(); redrawChains(); };
form.addEventListener('input', () => { clearTimeout(timer); timer = setTimeout(changed, 120); });
form.addEventListener('submit', (e) => e.preventDefault());
document.addEventListener('keydown', (e) => {
  if (e.key === '/' && document.activeElement !== input) { e.preventDefault(); input.focus(); }
});

// The header: title, what was loaded, the call form's choices, the legend (a click filters).
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
if (W) {
  const options = (values) => '<option value="">none</option>' +
    values.map((d) => `<option value="${d}">${d}</option>`).join('');
  field('tensor').innerHTML = options([...W.devices.keys()]);
  field('device').innerHTML = options([...W.devices.keys()]);
  document.getElementById('autocast').innerHTML = [...W.autocastDevices.keys()].map((d) =>
    `<label><input type="checkbox" name="autocast" value="${d}"> ${d}</label>`).join(' ');
  document.getElementById('runtime-keys').innerHTML =
    W.names.map((k) => `<option value="${esc(k)}">`).join('');
}

// #filter=WORDS&keys=..&tensor=..&device=..&autocast=..&inference_mode=1&open=OPERATOR: the filter
// to start with, the call form, and operators to expand.
const hash = new URLSearchParams(location.hash.slice(1));
input.value = hash.get('filter') || '';
for (const name of FORM_WORDS) if (hash.get(name)) field(name).value = hash.get(name);
field('inference_tensor').checked = hash.get('inference_tensor') === '1';
field('inference_mode').checked = hash.get('inference_mode') === '1';
for (const b of form.querySelectorAll('input[name=autocast]')) {
  b.checked = hash.getAll('autocast').includes(b.value);
}
for (const name of hash.getAll('open')) opened.add(name);
render();
document.body.dataset.operators = String(OPS.length);
