#!/usr/bin/env python3
"""Namespaces = folders (issue 26, item 3), as one mechanical pass over the tree.

Code in lib/X goes into namespace schemac::X (sub-namespaces such as detail, boxing, grammar, cpu
keep their place inside it); code in tools/T into its tool's namespace (TOOL_NAMESPACES). Then every
reference is made valid again:

- The symbol map is read from the tree at run time (universal-ctags over lib/ and tools/, plus the
  files that use them): every name declared at namespace scope in a schemac namespace (classes,
  structs, enums, aliases, functions, variables, using-declarations), with its old namespace and the
  namespace its folder gives it now.
- Qualified references (`schema::Diagnostic`, `::schemac::dispatch::Tensor`, `detail::x`) in lib/,
  tools/, tests/, bench/, fuzz/, examples/ are rewritten to the symbol's new namespace, in the
  shortest form that still resolves from where they stand.
- Unqualified references that no longer resolve (code that shared a namespace with the symbol and no
  longer does) get a using-declaration at the top of the namespace block they stand in, where the
  symbol is declared in that translation unit.
- `using namespace OLD;` becomes one directive per new namespace the file uses from OLD.
- Forward declarations of another library's class move into that library's namespace.
- Generated code (lib/codegen's output, checked byte for byte by golden/gen) keeps naming
  schemac::dispatch::X: lib/dispatch/include/schemac/dispatch/names_for_generated_code.h re-exports
  the runtime names that code uses, and the lib/dispatch headers generated code includes include it.

Comments, string literals and #include lines are never changed (generated code is emitted from
string literals, so it stays byte-identical).

Usage: rename_namespaces.py [ROOT]   (ROOT: the repository, default .)
"""
import collections
import json
import os
import re
import subprocess
import sys

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else '.')
os.chdir(ROOT)

# tools/<T> -> namespace (tools not listed: schemac::<T with - as _>).
TOOL_NAMESPACES = {'cli': 'schemac::cli', 'schemac': 'schemac::tool', 'dispatch-inspect': 'schemac::inspect'}
SCAN_DIRS = ['lib', 'tools', 'tests', 'bench', 'fuzz', 'examples']
CPP_EXT = ('.h', '.hpp', '.cuh', '.cpp', '.cc', '.cu', '.c')
REEXPORT_HEADER = 'lib/dispatch/include/schemac/dispatch/names_for_generated_code.h'
SYMBOL_KINDS = {'class', 'struct', 'enum', 'typedef', 'function', 'prototype', 'variable',
                'externvar', 'union', 'name'}


def log(*a):
    print('rename_namespaces:', *a, file=sys.stderr)


def cpp_files():
    out = []
    for d in SCAN_DIRS:
        for dirpath, dirnames, filenames in os.walk(d):
            dirnames[:] = sorted(x for x in dirnames if not x.startswith('.'))
            for f in sorted(filenames):
                if f.endswith(CPP_EXT):
                    out.append(os.path.join(dirpath, f))
    return out


def folder_namespace(path):
    """The namespace code in `path` belongs in, or None (tests, bench, ...: namespaces kept)."""
    parts = path.split('/')
    if parts[0] == 'lib' and len(parts) > 2:
        return 'schemac::' + parts[1].replace('-', '_')
    if parts[0] == 'tools' and len(parts) > 2:
        return TOOL_NAMESPACES.get(parts[1], 'schemac::' + parts[1].replace('-', '_'))
    return None


def remap(old, home):
    """New path of namespace `old` (a '::' path) declared in a file whose folder says `home`."""
    if home is None or not (old == 'schemac' or old.startswith('schemac::')):
        return old
    parts = old.split('::')
    short = home.split('::')[1]
    if len(parts) == 1:
        return home
    if parts[1] == short:
        return old
    tail = parts[2:]
    if tail and tail[0] == short:
        tail = tail[1:]
    return '::'.join([home] + tail)


# ---------------------------------------------------------------------------------------------
# Tokens: identifiers and punctuation with offsets; comments, literals and #include lines skipped.
TOKEN_RE = re.compile(r'''
    (?P<ws>\s+)
  | (?P<lcomment>//[^\n]*)
  | (?P<bcomment>/\*.*?\*/)
  | (?P<raw>(?:u8|u|U|L)?R"(?P<delim>[^()\\\s]{0,16})\((?:.|\n)*?\)(?P=delim)")
  | (?P<str>(?:u8|u|U|L)?"(?:\\.|[^"\\\n])*")
  | (?P<chr>(?:u8|u|U|L)?'(?:\\.|[^'\\\n])+')
  | (?P<num>\.?[0-9](?:[eEpP][+-]|[0-9a-zA-Z_.']|)*)
  | (?P<id>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<scope>::)
  | (?P<arrow>->)
  | (?P<punct>.)
''', re.S | re.X)


class Tok:
    __slots__ = ('kind', 'text', 'start', 'end', 'pp')

    def __init__(self, kind, text, start, end, pp):
        self.kind, self.text, self.start, self.end, self.pp = kind, text, start, end, pp


def tokenize(text):
    toks = []
    pos = 0
    n = len(text)
    line_start = True
    in_pp = False  # inside a preprocessor directive (to the end of its logical line)
    while pos < n:
        if line_start:
            m = re.match(r'[ \t]*#[ \t]*(\w*)', text[pos:pos + 200])
            if m:
                if m.group(1) in ('include', 'pragma', 'error', 'warning', 'line'):
                    # skip the whole logical line
                    while True:
                        e = text.find('\n', pos)
                        if e < 0:
                            pos = n
                            break
                        if text[e - 1] == '\\':
                            pos = e + 1
                            continue
                        pos = e + 1
                        break
                    continue
                in_pp = True
        m = TOKEN_RE.match(text, pos)
        kind = m.lastgroup
        if kind == 'delim':
            kind = 'raw'
        s, e = m.start(), m.end()
        if kind == 'ws':
            if '\n' in m.group():
                # a newline ends a directive unless escaped
                nl = text.rfind('\n', s, e)
                if not (in_pp and text[nl - 1] == '\\'):
                    in_pp = False
                line_start = True
            else:
                line_start = line_start and True
            pos = e
            continue
        line_start = False
        if kind not in ('lcomment', 'bcomment'):
            toks.append(Tok(kind, m.group(), s, e, in_pp))
        pos = e
    return toks


# ---------------------------------------------------------------------------------------------
# Namespace blocks of a file: for each token, the old namespace path around it.
class Block:
    def __init__(self, kind, old_path, open_tok=None, name_toks=None):
        self.kind = kind            # 'ns', 'anon', 'brace'
        self.old_path = old_path    # namespace path (anonymous namespaces are transparent)
        self.new_path = old_path
        self.open_tok = open_tok    # index of the '{' token
        self.ns_tok = None          # index of the 'namespace' keyword
        self.close_tok = None
        self.parent = None
        self.top = None             # the outermost schemac block containing this one


def analyse(toks):
    """Returns (blocks, path_at[i] -> innermost Block for token i, aliases, directives)."""
    blocks = []
    stack = [Block('root', '')]
    stack[0].top = None
    at = [None] * len(toks)
    aliases = {}      # namespace alias name -> (token index of target chain start, end)
    directives = []   # (index of 'using', index of first chain token, index of ';')
    i = 0
    n = len(toks)
    while i < n:
        t = toks[i]
        at[i] = stack[-1]
        if t.pp:
            i += 1
            continue
        if t.kind == 'id' and t.text == 'namespace' and not (i > 0 and toks[i - 1].text == 'using'):
            j = i + 1
            names = []
            while j < n and (toks[j].kind == 'id' or toks[j].kind == 'scope'):
                if toks[j].kind == 'id' and toks[j].text != 'inline':
                    names.append(toks[j].text)
                j += 1
            if j < n and toks[j].text == '=':
                k = j + 1
                while k < n and toks[k].text != ';':
                    k += 1
                aliases[names[0]] = (j + 1, k)
                for x in range(i, k + 1):
                    at[x] = stack[-1]
                i = k + 1
                continue
            if j < n and toks[j].text == '{':
                parent = stack[-1]
                if names:
                    base = parent.old_path
                    path = '::'.join(([base] if base else []) + names)
                    b = Block('ns', path, j)
                else:
                    b = Block('anon', parent.old_path, j)
                b.ns_tok = i
                b.parent = parent
                b.top = parent.top if parent.top else (b if b.kind == 'ns' and b.old_path.startswith('schemac') else None)
                blocks.append(b)
                for x in range(i, j + 1):
                    at[x] = stack[-1]
                stack.append(b)
                i = j + 1
                continue
        if t.kind == 'id' and t.text == 'using' and i + 1 < n and toks[i + 1].text == 'namespace':
            k = i + 2
            while k < n and toks[k].text != ';':
                k += 1
            directives.append((i, i + 2, k))
        if t.text == '{':
            b = Block('brace', stack[-1].old_path, i)
            b.parent = stack[-1]
            b.top = stack[-1].top
            blocks.append(b)
            stack.append(b)
        elif t.text == '}':
            if len(stack) > 1:
                stack[-1].close_tok = i
                stack.pop()
        i += 1
    return blocks, at, aliases, directives


def ancestors(path):
    """path, its parents, ..., '' (the global namespace)."""
    out = []
    while path:
        out.append(path)
        path = path.rsplit('::', 1)[0] if '::' in path else ''
    out.append('')
    return out


def join(a, b):
    return a + '::' + b if a else b


# ---------------------------------------------------------------------------------------------
def main():
    files = cpp_files()
    texts = {f: open(f, encoding='utf-8', errors='surrogateescape').read() for f in files}

    # 1. Tags. ------------------------------------------------------------------------------
    ctags = subprocess.run(
        ['ctags', '--output-format=json', '--language-force=C++', '--kinds-C++=+pxN',
         '--fields=+sKZn', '--extras=-q', '-f', '-'] + files,
        capture_output=True, text=True, check=True)
    tags = []
    member_names = set()  # names of class members, functions' locals...: never qualified in place
    for line in ctags.stdout.splitlines():
        try:
            t = json.loads(line)
        except ValueError:
            continue
        if t.get('_type') != 'tag' or t.get('kind') not in SYMBOL_KINDS:
            continue
        if t['name'].startswith('operator') and not t['name'][8:9].isalnum() and t['name'][8:9] != '_':
            continue  # operators are found by argument-dependent lookup
        scope = t.get('scope', '')
        if t.get('scopeKind', 'namespace') != 'namespace':
            if scope.rsplit('::', 1)[-1] != t['name']:  # constructors are not other names
                member_names.add(t['name'])
            continue
        if '__anon' in scope:
            continue
        if not (scope == 'schemac' or scope.startswith('schemac::')):
            continue
        tags.append(t)

    # Every namespace, old and new.
    old_namespaces = {'schemac'}
    ns_map = {}  # (old ns path, folder home) -> new path
    analysed = {}
    for f in files:
        toks = tokenize(texts[f])
        blocks, at, aliases, directives = analyse(toks)
        analysed[f] = (toks, blocks, at, aliases, directives)
        home = folder_namespace(f)
        for b in blocks:
            if b.kind == 'ns':
                for a in ancestors(b.old_path):
                    if a:
                        old_namespaces.add(a)
                if b.old_path.startswith('schemac'):
                    b.new_path = remap(b.old_path, home)
            elif b.kind in ('anon', 'brace'):
                b.new_path = b.parent.new_path if b.parent else b.old_path
    new_namespace_of = {}
    for f in files:
        home = folder_namespace(f)
        for b in analysed[f][1]:
            if b.kind == 'ns':
                new_namespace_of.setdefault(b.old_path, set()).add(b.new_path)
    new_namespaces = set()
    for s in new_namespace_of.values():
        for p in s:
            for a in ancestors(p):
                if a:
                    new_namespaces.add(a)

    # Symbols: (old ns, name) -> {new ns}; and where each is declared (file -> set of (old, name)).
    symbols = collections.defaultdict(set)
    declared_in = collections.defaultdict(set)    # file -> {(new ns, name)}
    using_decls = []                              # tags of kind 'name' (using-declarations)
    kinds = collections.defaultdict(set)          # (new ns, name) -> ctags kinds
    declared_files = collections.defaultdict(set)  # (new ns, name) -> files
    for t in tags:
        f = t['path']
        home = folder_namespace(f)
        old = t['scope']
        if t['kind'] == 'name':
            using_decls.append(t)
            continue
        new = remap(old, home)
        symbols[(old, t['name'])].add(new)
        declared_in[f].add((new, t['name']))
        kinds[(new, t['name'])].add(t['kind'])
        declared_files[(new, t['name'])].add(f)

    def resolve_ns(chain, scope, known):
        """The namespace `chain` (list of names) names from namespace `scope`, or None."""
        for base in ancestors(scope):
            p = join(base, '::'.join(chain))
            if join(base, chain[0]) in known:
                return p if p in known else None
        return None

    symbols_named = collections.defaultdict(set)  # name -> {new ns}
    for (old, name), homes in symbols.items():
        symbols_named[name] |= homes

    # Using-declarations (re-exports such as `namespace schemac::schema { using dispatch::X; }`):
    # the alias resolves to its target's new home.
    for t in using_decls:
        if not t['path'].endswith(('.h', '.hpp', '.cuh')):
            continue  # a .cpp file's using-declarations are its own business
        m = re.search(r'using\s+((?:::)?[\w:]+)\s*;', t.get('pattern', ''))
        if not m:
            continue
        chain = m.group(1).lstrip(':').split('::')
        target_ns = resolve_ns(chain[:-1], t['scope'], old_namespaces) if len(chain) > 1 else None
        if target_ns and (target_ns, chain[-1]) in symbols:
            symbols[(t['scope'], t['name'])] |= symbols[(target_ns, chain[-1])]
            if folder_namespace(t['path']) is None:
                # a re-export outside lib/ and tools/ stays where it is, and stays valid
                symbols[(t['scope'], t['name'])].add(t['scope'])
                declared_in[t['path']].add((t['scope'], t['name']))

    # 2. Include closure per file (project headers only). -------------------------------------
    include_dirs = sorted({os.path.join('lib', d, 'include') for d in os.listdir('lib')} |
                          {os.path.join('tools', d) for d in os.listdir('tools')} |
                          {'tests/common'})
    include_re = re.compile(r'^\s*#\s*include\s*[<"]([^">]+)[">]', re.M)
    direct = {}

    def find_header(inc, frm):
        for d in [os.path.dirname(frm)] + include_dirs:
            p = os.path.normpath(os.path.join(d, inc))
            if p in texts:
                return p
        return None

    for f in files:
        direct[f] = [h for h in (find_header(i, f) for i in include_re.findall(texts[f])) if h]
    closure_cache = {}

    def closure(f):
        if f in closure_cache:
            return closure_cache[f]
        seen, todo = {f}, [f]
        while todo:
            x = todo.pop()
            for h in direct.get(x, []):
                if h not in seen:
                    seen.add(h)
                    todo.append(h)
        closure_cache[f] = seen
        return seen

    def declared_in_tu(f, new_ns, name):
        return any((new_ns, name) in declared_in[h] for h in closure(f))

    def spell(target_ns, name_chain, scope_new, absolute):
        """Shortest spelling of target_ns::name_chain... resolvable from scope_new."""
        if absolute:
            return target_ns
        short = target_ns[len('schemac::'):] if target_ns.startswith('schemac::') else target_ns
        for cand in ([short] if short != target_ns else []) + [target_ns]:
            if resolve_ns(cand.split('::'), scope_new, new_namespaces) == target_ns:
                return cand
        return '::' + target_ns

    # The runtime names generated code uses (golden/gen, and the string literals of lib/codegen).
    generated_names = set()
    gen_sources = []
    for dirpath, _, filenames in os.walk('golden/gen'):
        gen_sources += [open(os.path.join(dirpath, x), errors='replace').read() for x in filenames]
    gen_idents = set()
    for text in gen_sources:
        gen_idents |= set(re.findall(r'[A-Za-z_]\w*', text))
    for f in files:
        if f.startswith('lib/codegen/'):
            for tok in analysed[f][0]:
                if tok.kind in ('str', 'raw'):
                    gen_idents |= set(re.findall(r'[A-Za-z_]\w*', tok.text))
    for name in gen_idents:
        homes = symbols.get(('schemac::dispatch', name), set())
        if 'schemac::dispatch' in homes:
            continue  # still declared in schemac::dispatch (such as the Stack alias)
        for new in homes:
            generated_names.add((new, name))

    # Overload sets split over libraries (to_string of lib/keys, lib/core and lib/dispatch) are put
    # back together where a library sees the others: the header that declares a home's overloads
    # re-declares those of the homes it includes, so that `dispatch::to_string(key)` still finds
    # every overload the old namespace had.
    extra_usings = collections.defaultdict(set)   # header -> {(home of the header, (ns, name))}
    covers = collections.defaultdict(set)         # (home, name) -> homes its overload set holds
    for (old, name), homes in sorted(symbols.items()):
        if len(homes) < 2:
            continue
        for h in homes:
            covers[(h, name)].add(h)
            if not (kinds.get((h, name), set()) <= {'function', 'prototype'}):
                continue
            for header in sorted(x for x in declared_files[(h, name)] if '/include/' in x):
                for h2 in homes:
                    if h2 != h and kinds.get((h2, name), set()) <= {'function', 'prototype'} and \
                            declared_in_tu(header, h2, name):
                        extra_usings[header].add((h, (h2, name)))
                        covers[(h, name)].add(h2)

    def choose_home(f, homes, old_ns, name, scope_new):
        in_tu = sorted(h for h in homes if declared_in_tu(f, h, name)) or sorted(homes)
        for a in ancestors(scope_new):
            if a in in_tu:
                return a
        return max(in_tu, key=lambda h: (len(covers[(h, name)] & set(in_tu)), h == old_ns, h))

    # Files whose line numbers golden files print (registration sites: `file.cpp:NN`): there the
    # script qualifies in place rather than adding lines, so the goldens keep their numbers.
    line_sensitive = set()
    for dirpath, _, filenames in os.walk('golden'):
        for x in filenames:
            for m in re.findall(r'([\w./-]+\.(?:cpp|cc|cu|h|c)):\d+', open(os.path.join(dirpath, x), errors='replace').read()):
                if m in texts:
                    line_sensitive.add(m)

    # 3. Rewrite each file. ------------------------------------------------------------------
    changed = 0
    report = collections.Counter()
    for f in files:
        toks, blocks, at, aliases, directives = analysed[f]
        text = texts[f]
        edits = []  # (start, end, replacement)
        home = folder_namespace(f)
        alias_target = {}
        for name, (s, e) in aliases.items():
            chain = [t.text for t in toks[s:e] if t.kind == 'id']
            p = resolve_ns(chain, at[s].old_path, old_namespaces)
            if p:
                alias_target[name] = p

        # 3a. Namespace blocks.
        moved_forward = collections.defaultdict(list)  # top block -> [(new ns, decl text)]
        for b in blocks:
            if b.kind != 'ns' or not b.old_path.startswith('schemac') or home is None:
                continue
            parent_new = b.parent.new_path if b.parent and b.parent.kind != 'root' else ''
            if b.new_path == b.old_path:
                continue
            name_start = toks[b.ns_tok + 1].start
            name_end = toks[b.open_tok - 1].end
            if parent_new and b.new_path == parent_new:
                # the nested namespace disappears into its parent: drop its braces
                edits.append((line_start(text, toks[b.ns_tok].start), line_end(text, toks[b.open_tok].end), ''))
                if b.close_tok is not None:
                    edits.append((line_start(text, toks[b.close_tok].start), line_end(text, toks[b.close_tok].end), ''))
                report['nested namespace removed'] += 1
                continue
            if parent_new:
                assert b.new_path.startswith(parent_new + '::'), (f, b.old_path, b.new_path)
                written = b.new_path[len(parent_new) + 2:]
            else:
                written = b.new_path
            old_written = text[name_start:name_end]
            edits.append((name_start, name_end, written))
            if b.close_tok is not None:
                m = re.compile(r'[ \t]*//[ \t]*namespace[ \t]+' + re.escape(old_written) + r'\b').match(
                    text, toks[b.close_tok].end)
                if m:
                    edits.append((m.start(), m.end(), '  // namespace ' + written))
            report['namespace block renamed'] += 1

        # Forward declarations of another library's classes.
        for i, t in enumerate(toks):
            if t.pp or t.text not in ('class', 'struct') or i + 2 >= len(toks):
                continue
            if toks[i + 2].text != ';' or toks[i + 1].kind != 'id':
                continue
            if i > 0 and toks[i - 1].text in ('friend', 'enum', '>', ','):
                continue
            blk = at[i]
            if blk.kind not in ('ns',) or not blk.old_path.startswith('schemac') or blk.top is None:
                continue
            homes = symbols.get((blk.old_path, toks[i + 1].text), set())
            if not homes or blk.new_path in homes or len(homes) != 1:
                continue
            target = next(iter(homes))
            edits.append((line_start(text, t.start), line_end(text, toks[i + 2].end), ''))
            moved_forward[blk.top].append((target, f'{t.text} {toks[i + 1].text};'))
            declared_in[f].add((target, toks[i + 1].text))
            report['forward declaration moved'] += 1
        for top, decls in moved_forward.items():
            by_ns = collections.defaultdict(list)
            for ns, d in decls:
                by_ns[ns].append(d)
            ins = ''.join(f'namespace {ns} {{\n' + ''.join(d + '\n' for d in sorted(set(ds))) +
                          f'}}  // namespace {ns}\n\n' for ns, ds in sorted(by_ns.items()))
            p = line_start(text, toks[top.ns_tok].start)
            edits.append((p, p, ins))

        # 3b. Qualified references and unqualified ones that lose sight of their symbol.
        needs_using = collections.defaultdict(set)  # top block -> {(new ns, name)}
        occurrences = collections.defaultdict(list)  # (top block, ns, name) -> token indices
        i = 0
        n = len(toks)
        while i < n:
            t = toks[i]
            if t.kind != 'id' and not (t.kind == 'scope' and i + 1 < n and toks[i + 1].kind == 'id'):
                i += 1
                continue
            prev = toks[i - 1] if i > 0 else None
            if t.kind == 'id' and prev is not None and (prev.kind in ('scope', 'arrow') or prev.text == '.'):
                i += 1
                continue
            # the chain: [::] id (:: id)*
            j = i
            absolute = False
            if toks[j].kind == 'scope':
                absolute = True
                j += 1
            chain_idx = [j]
            while j + 2 < n and toks[j + 1].kind == 'scope' and toks[j + 2].kind == 'id':
                j += 2
                chain_idx.append(j)
            chain = [toks[k].text for k in chain_idx]
            blk = at[i]
            old_scope, new_scope = blk.old_path, blk.new_path
            # the longest namespace prefix of the chain
            k = 0
            ns_old = None
            first_ns = alias_target.get(chain[0]) if not absolute else None
            for m in range(len(chain) - 1, 0, -1):
                sub = chain[:m]
                if absolute:
                    p = '::'.join(sub)
                    p = p if p in old_namespaces else None
                elif first_ns:
                    p = join(first_ns, '::'.join(sub[1:])) if m > 1 else first_ns
                    p = p if p in old_namespaces else None
                else:
                    p = resolve_ns(sub, old_scope, old_namespaces)
                if p:
                    k, ns_old = m, p
                    break
            if ns_old:
                name = chain[k]
                homes = symbols.get((ns_old, name))
                if homes and ns_old.startswith('schemac'):
                    if len(homes) > 1:
                        # a name split over libraries (an overload set, or an alias declared twice)
                        target = choose_home(f, homes, ns_old, name, new_scope)
                        report['split name, qualified reference: ' + ns_old + '::' + name + ' -> ' + target] += 1
                    else:
                        target = next(iter(homes))
                    # what the written prefix names in the new tree
                    if first_ns and not absolute:
                        # a namespace alias keeps naming the same path
                        aliased = join(first_ns, '::'.join(chain[1:k])) if k > 1 else first_ns
                        now = aliased if aliased in new_namespaces else None
                    elif absolute:
                        now = '::'.join(chain[:k]) if '::'.join(chain[:k]) in new_namespaces else None
                    else:
                        now = resolve_ns(chain[:k], new_scope, new_namespaces)
                    if now != target:
                        if first_ns and not absolute:
                            written = spell(target, name, new_scope, False)
                        elif absolute or chain[0] == 'schemac':
                            written = target
                        else:
                            written = spell(target, name, new_scope, False)
                        s = toks[i].start
                        e = toks[chain_idx[k - 1]].end
                        edits.append((s, e, ('::' if absolute else '') + written))
                        report['qualified reference rewritten'] += 1
                i = chain_idx[k] + 1 if k < len(chain_idx) else j + 1
                continue
            # unqualified use of the chain's first name
            if not absolute and not t.pp and blk.top is not None:
                name = chain[0]
                if not (i > 0 and toks[i - 1].text in ('class', 'struct', 'enum', 'namespace', 'union', 'goto')):
                    for a in ancestors(old_scope):
                        homes = symbols.get((a, name))
                        if homes:
                            if a == old_scope and new_scope in homes and declared_in_tu(f, new_scope, name):
                                break
                            visible = set(ancestors(new_scope))
                            for h in homes:
                                if h in visible:
                                    continue
                                if declared_in_tu(f, h, name):
                                    needs_using[blk.top].add((h, name))
                                    occurrences[(blk.top, h, name)].append(i)
                            break
            i = chain_idx[-1] + 1
        for home, sym in extra_usings.get(f, ()):
            tops = [b for b in blocks if b.kind == 'ns' and b.top is b and b.new_path == home]
            if tops:
                needs_using[tops[0]].add(sym)
        for top, names in needs_using.items():
            # a name used once or twice is qualified where it stands (when nothing else in the
            # project has that name); the others get one using-declaration
            lines = []
            for ns, name in sorted(names):
                occ = occurrences.get((top, ns, name), [])
                limit = len(occ) if f in line_sensitive else 2
                if occ and len(occ) <= limit and name not in member_names and \
                        len(symbols_named[name]) == 1 and (top.new_path, name) not in kinds:
                    for k in occ:
                        edits.append((toks[k].start, toks[k].end, spell(ns, name, at[k].new_path, False) + '::' + name))
                    report['unqualified reference qualified'] += len(occ)
                    continue
                if kinds.get((top.new_path, name), set()) - {'function', 'prototype'} and \
                        declared_in_tu(f, top.new_path, name):
                    # the block's namespace has its own `name` (not a function): a using-declaration
                    # would clash with it
                    report['using-declaration skipped (own name): ' + top.new_path + '::' + name + ' for ' + ns + ' in ' + f] += 1
                    continue
                lines.append(f'{spell(ns, name, top.new_path, False)}::{name}')
                report['using-declaration added'] += 1
            if lines:
                # one using-declaration naming them all (C++17), wrapped at 100 columns
                decl, line = [], 'using '
                for k, item in enumerate(lines):
                    piece = item + (',' if k + 1 < len(lines) else ';')
                    if len(line) + len(piece) + 1 > 100 and line.strip() != 'using':
                        decl.append(line.rstrip() + '\n')
                        line = '    '
                    line += piece + ' '
                decl.append(line.rstrip() + '\n')
                p = line_end(text, toks[top.open_tok].end)
                after = '' if text.startswith('\n', p) else '\n'
                edits.append((p, p, '\n' + ''.join(decl) + after))

        # 3c. using namespace OLD; -> the new namespaces the file uses from OLD.
        for (u, s, e) in directives:
            chain = [x.text for x in toks[s:e] if x.kind == 'id']
            absolute = toks[s].kind == 'scope'
            blk = at[u]
            old = '::'.join(chain) if absolute else resolve_ns(chain, blk.old_path, old_namespaces)
            if not old or not old.startswith('schemac'):
                continue
            used = collections.defaultdict(int)
            idents = {x.text for x in toks if x.kind == 'id'}
            for (ns, name), homes in symbols.items():
                if ns == old and name in idents:
                    for h in homes:
                        if declared_in_tu(f, h, name):
                            used[h] += 1
            targets = sorted(used)
            if not targets or targets == [old]:
                continue
            indent = text[line_start(text, toks[u].start):toks[u].start]
            repl = ('\n' + indent).join(f'using namespace {spell(h, "", blk.new_path, False) if not absolute else h};'
                                        for h in targets)
            edits.append((toks[u].start, toks[e].end, repl))
            report['using-directive split'] += 1

        if edits:
            new_text = apply_edits(text, edits, f)
            if new_text != text:
                texts[f] = new_text
                changed += 1

    # 4. Re-exports for generated code. -------------------------------------------------------
    if generated_names and os.path.isdir('lib/dispatch/include/schemac/dispatch'):
        decl_file = {}
        for t in tags:
            new = remap(t['scope'], folder_namespace(t['path']))
            if (new, t['name']) in generated_names and '/include/' in t['path']:
                decl_file.setdefault((new, t['name']), t['path'].split('/include/', 1)[1])
        headers = sorted(set(decl_file.values()))
        body = ''.join(f'using {ns[len("schemac::"):]}::{name};\n' for ns, name in sorted(generated_names)
                       if (ns, name) in decl_file)
        text = ('// The runtime names generated code spells schemac::dispatch::X (golden/gen): the types of\n'
                '// lib/core and lib/keys it uses, re-exported into schemac::dispatch so that every file\n'
                '// schemac gen wrote keeps compiling. New code names them by their own namespace.\n'
                '#pragma once\n\n' + ''.join(f'#include "{h}"\n' for h in headers) +
                '\nnamespace schemac::dispatch {\n\n' + body + '\n}  // namespace schemac::dispatch\n')
        texts[REEXPORT_HEADER] = text
        with open(REEXPORT_HEADER, 'w') as out:
            out.write(text)
        inc = '#include "' + REEXPORT_HEADER.split('/include/', 1)[1] + '"'
        included = set()
        for g in gen_sources:
            included |= set(re.findall(r'#include "(schemac/dispatch/[^"]+)"', g))
        for h in sorted(included):
            p = 'lib/dispatch/include/' + h
            if p in texts and inc not in texts[p] and p != REEXPORT_HEADER:
                t = texts[p]
                last = list(re.finditer(r'^#include .*\n', t, re.M))
                pos = last[-1].end() if last else t.index('#pragma once\n') + len('#pragma once\n')
                texts[p] = t[:pos] + inc + '\n' + t[pos:]
                if p not in files:
                    files.append(p)
                changed += 1
        log(f'{REEXPORT_HEADER}: {len(generated_names)} names; included by {", ".join(sorted(included))}')

    # 5. Tidy: using-declarations of a namespace's own names, and blocks left empty.
    for f in files:
        t = texts[f]
        t2 = drop_self_usings(t)
        t2 = re.sub(r'\nnamespace ([\w:]+) \{\n\s*\}  // namespace \1\n', '\n', t2)
        if t2 != t:
            texts[f] = t2
    for f in files:
        with open(f, encoding='utf-8', errors='surrogateescape') as fh:
            before = fh.read()
        if texts[f] != before:
            with open(f, 'w', encoding='utf-8', errors='surrogateescape') as fh:
                fh.write(texts[f])
    for k, v in sorted(report.items()):
        log(f'{v:5d} {k}')
    log(f'{changed} files changed')


def drop_self_usings(text):
    """Removes `using X::name;` lines inside `namespace schemac::X {` blocks naming X itself."""
    out = []
    current = []
    for line in text.split('\n'):
        m = re.match(r'namespace ([\w:]+) \{', line)
        if m:
            current.append(m.group(1))
        elif re.match(r'\}  // namespace ([\w:]+)', line) and current:
            current.pop()
        m = re.match(r'\s*using (::)?([\w:]+)::(\w+);\s*$', line)
        if m and current:
            ns = m.group(2)
            full = ns if (m.group(1) or ns.startswith('schemac')) else 'schemac::' + ns
            if full == current[-1] or full == 'schemac::' + current[-1]:
                continue
        out.append(line)
    return '\n'.join(out)


def line_start(text, pos):
    return text.rfind('\n', 0, pos) + 1


def line_end(text, pos):
    e = text.find('\n', pos)
    return len(text) if e < 0 else e + 1


def apply_edits(text, edits, f):
    edits = sorted(set(edits), key=lambda e: (e[0], e[1]))
    out = []
    pos = 0
    for s, e, r in edits:
        if s < pos:
            # overlapping edits: keep the first (a removed line wins over a rename inside it)
            continue
        out.append(text[pos:s])
        out.append(r)
        pos = e
    out.append(text[pos:])
    return ''.join(out)


if __name__ == '__main__':
    main()
