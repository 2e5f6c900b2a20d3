'use strict';
// The report page's resolve walk: a chain for any call, as `dispatch-inspect resolve OP` prints
// it. The rules are the C++ walk's own, exported as data (D.walk, render_html.h): per key its
// bits, and either the mask its kernel's redispatch keeps or why the chain ends there; the reasons
// that end a chain; a fresh thread's sets and what inference mode and autocast change in them;
// BackendSelect's key and each device's backend; the sentences. This file is only the loop.
const D = JSON.parse(document.getElementById('report-data').textContent);
const S = D.strings;
const str = (i) => (i < 0 ? '' : S[i]);

const W = D.walk && D.walk.keys ? (() => {
  const big = (hex) => BigInt('0x' + hex);
  const w = D.walk;
  return {names: w.keys.map(str), bits: w.bits.map(big), func: w.func.map(big), mask: w.mask,
    end: w.end.map(str), masks: w.masks.map(big), undefined: str(w.undefined[0]),
    undefinedEnd: str(w.undefined[1]), backends: big(w.sets[0]), included: big(w.sets[1]),
    excluded: big(w.sets[2]),
    reasonEnds: new Map(w.reason_ends.map(([r, text, fails]) => [str(r), {text: str(text),
      fails: !!fails}])),
    selectKey: str(w.select),
    devices: new Map(w.devices.map(([d, backend, tensor]) => [d, {backend: big(backend),
      tensor: big(tensor)}])),
    autocastDevices: new Map(w.autocast_devices.map(([d, key]) => [d, big(key)])),
    notIncludedInference: big(w.inference[0]), excludedInference: big(w.inference[1]),
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
// The dispatcher's subtraction takes out the excluded set's functionalities and keeps the backend
// bits (excluding AutogradCPU leaves CPU).
const underSets = (keys, included, excluded) => (keys | included) & (W.backends | ~excluded);

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

// The closest runtime key to a misspelt one, or '', as resolve ranks them (names.h's
// closest_name over the runtime keys): within max(2, length / 3) edits, the nearest, the
// runtime's own order breaking ties.
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

// "CPU, AutogradCPU" -> its key set, or {error} naming the unknown key and the closest known one.
function parseKeys(text) {
  let set = 0n;
  for (const word of (text || '').split(',')) {
    const name = word.trim();
    if (!name) continue;
    const i = W.names.indexOf(name);
    if (i >= 0) { set |= W.bits[i]; continue; }
    if (W.otherKeys.has(name)) return {error: W.notes[4].replace('{key}', name)};
    return {error: W.notes[3].replace('{key}', name), suggestion: closestKey(name)};
  }
  return {set};
}

// A call in the shape of resolve's options (wire.h's CallSpec): {keys, tensors, inference_tensors,
// include, exclude, autocast, inference_mode, device}; a string is a call with those keys.
function callOf(call) {
  const c = typeof call === 'string' ? {keys: call} : (call || {});
  return {keys: c.keys || '', tensors: c.tensors || [], inference_tensors: c.inference_tensors || [],
    include: c.include || '', exclude: c.exclude || '', autocast: c.autocast || [],
    inference_mode: !!c.inference_mode, device: c.device || ''};
}

// The call's keys and thread-local sets (answer.h's call_of_request), or {error, suggestion}.
function callSets(call, raw) {
  const parsed = {};
  for (const what of ['keys', 'include', 'exclude']) {
    const p = parseKeys(call[what]);
    if (p.error) return p;
    parsed[what] = p.set;
  }
  let keys = parsed.keys;
  for (const d of call.tensors) keys |= W.devices.get(d).tensor;
  for (const d of call.inference_tensors) {
    keys |= W.devices.get(d).tensor & ~(W.notIncludedInference | W.excludedInference);
  }
  if (keys && raw.factory) return {error: W.notes[5].replace('{op}', raw.name)};
  if (call.device && !raw.device) return {error: W.notes[6].replace('{op}', raw.name)};
  let included = W.included;
  let excluded = W.excluded;
  if (call.inference_mode) {
    included &= ~W.notIncludedInference;
    excluded |= W.excludedInference;
  }
  included |= parsed.include;
  excluded |= parsed.exclude;
  for (const d of call.autocast) excluded &= ~W.autocastDevices.get(d);
  return {keys, included, excluded};
}

// The resolution of operator `name` for a call (resolve's options, or a key set), in the shape
// of `resolve --format json` (and `fails`), or {error, suggestion}.
function resolveChain(name, given) {
  const op = OPS.find((o) => o.name === name);
  if (!W || !op) return {error: `no operator '${name}' on this page`};
  const call = callOf(given);
  const sets = callSets(call, op.raw);
  if (sets.error) return sets;
  const start = underSets(sets.keys, sets.included, sets.excluded);
  // What the thread-local sets added and dropped, named key by key, as resolve names them.
  const given_ = keysIn(sets.keys);
  const result = keysIn(start);
  const added = result.filter((i) => !given_.includes(i));
  const dropped = keysIn(sets.keys | sets.included).filter((i) => !result.includes(i));
  const list = (indices) => indices.map(keyName).join(', ');
  const threadLocal = [];
  if (added.length) threadLocal.push(W.notes[0].replace('{keys}', list(added)));
  if (dropped.length) {
    const autocast = dropped.some((i) => W.autocast.has(W.names[i]));
    threadLocal.push(W.notes[1].replace('{keys}', list(dropped))
      .replace('{autocast}', autocast ? W.notes[2] : ''));
  }
  const rows = new Map(op.rows.map((r) => [r.key, r]));
  const skipped = [];
  let ks = withoutFallthroughs(rows, start, skipped);
  const chain = [];
  let end = '';
  let fails = false;
  let selected = false;
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
    let next = ks & W.masks[W.mask[key]];
    if (keyName(key) === W.selectKey) {
      // BackendSelect: the options' device (cpu when none), alone for an operator without
      // tensor arguments, else with the call's keys under its thread-local sets.
      const device = W.devices.get(call.device || 'cpu').backend;
      next = op.raw.factory ? device :
        underSets(sets.keys | device, sets.included, sets.excluded) & W.masks[W.mask[key]];
      selected = true;
    }
    ks = withoutFallthroughs(rows, next, null);
  }
  const notes = call.device && !selected ? [W.notes[7].replace('{device}', call.device)] : [];
  return {operator: name, key_set: setText(start), thread_local: threadLocal, skipped,
    winner: chain[0].key, kernel: chain[0].kernel, reason: chain[0].reason, chain, end, notes,
    fails};
}
window.resolveChain = resolveChain;
