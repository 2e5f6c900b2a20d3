#!/usr/bin/env python3
"""Tests by library (issue 26, item 4), as one rule-based pass over tests/.

Each test source under tests/<area>/ goes where its subject is:
- a test that runs a tool's binary (it names SCHEMAC_BINARY, SCHEMAC_EXE, DISPATCH_INSPECT or
  SCHEMAC_DISPATCH_INSPECT) and stands in a library's folder goes to the tool's folder:
  tests/schemac for schemac, tests/inspect for dispatch-inspect;
- any other test in a library's folder goes to the folder of the highest library it includes
  (`#include "schemac/<lib>/..."`, in the file or in the test folder's own headers it includes),
  "highest" by the libraries' link graph (lib/*/CMakeLists.txt);
- folders that are not a library's (tests/cli, tests/inspect, tests/gen, tests/robustness,
  tests/torch, ...) keep their tests, except that tests/gen counts as lib/codegen's folder for its
  unit tests (tests/gen keeps its name: generated files name their input tests/gen/data/..., so
  renaming it would change golden outputs; tests/inspect likewise names its libraries' sources).
Files whose destination cannot be told are left where they are and listed.

A moved file's CMake goes with it: an executable built from that file alone moves whole (with its
comment, the if() around it, every command naming it); a file of a several-file executable gets
its own executable in the new folder, with the old one's links, definitions, include folders,
dependencies and test properties; an item of a foreach() over test names moves as a one-item
foreach. ${CMAKE_CURRENT_SOURCE_DIR} in moved CMake becomes the old folder, so data stays put.
Quoted includes of the old folder's files become "../<old>/file".

Usage: move_tests.py [ROOT] [--dry-run]
"""
import os
import re
import subprocess
import sys

args = [a for a in sys.argv[1:] if not a.startswith('--')]
DRY = '--dry-run' in sys.argv
ROOT = os.path.abspath(args[0] if args else '.')
os.chdir(ROOT)

TOOL_MACROS = {'schemac': ('SCHEMAC_BINARY', 'SCHEMAC_EXE'),
               'inspect': ('DISPATCH_INSPECT', 'SCHEMAC_DISPATCH_INSPECT')}
FOLDER_ALIASES = {'gen': 'codegen'}   # tests/<folder> -> the library it tests
TEST_SOURCE = re.compile(r'.*_test\.cpp$')


def log(*a):
    print('move_tests:', *a, file=sys.stderr)


def libraries():
    libs = sorted(d for d in os.listdir('lib') if os.path.isfile(os.path.join('lib', d, 'CMakeLists.txt')))
    deps = {}
    for lib in libs:
        text = open(os.path.join('lib', lib, 'CMakeLists.txt')).read()
        found = set(re.findall(r'schemac(?:::|_)([a-z_]+)', ' '.join(re.findall(r'target_link_libraries\(([^)]*)\)', text))))
        deps[lib] = {d for d in found if d in libs and d != lib}
    closure = {}

    def below(lib, seen=()):
        if lib in closure:
            return closure[lib]
        out = set()
        for d in deps[lib]:
            if d not in seen:
                out |= {d} | below(d, seen + (lib,))
        closure[lib] = out
        return out
    for lib in libs:
        below(lib)
    return libs, closure


def included_libs(path, seen=None):
    """Libraries a test file includes, directly or through the tests' own headers."""
    seen = seen if seen is not None else set()
    if path in seen or not os.path.isfile(path):
        return set()
    seen.add(path)
    text = open(path, errors='replace').read()
    out = set(re.findall(r'#\s*include\s*[<"]schemac/([a-z_]+)/', text))
    for inc in re.findall(r'#\s*include\s*"([^"]+)"', text):
        local = os.path.normpath(os.path.join(os.path.dirname(path), inc))
        if local.startswith('tests/'):
            out |= included_libs(local, seen)
    return out


def destination(path, libs, below):
    area = path.split('/')[1]
    lib_of_area = FOLDER_ALIASES.get(area, area)
    if lib_of_area not in libs:
        return None, 'not a library folder'
    text = open(path, errors='replace').read()
    tools = [t for t, macros in TOOL_MACROS.items() if any(re.search(r'\b' + m + r'\b', text) for m in macros)]
    if len(tools) == 1:
        return tools[0], 'runs ' + tools[0]
    if len(tools) > 1:
        return None, 'runs both tools'
    found = included_libs(path) & set(libs)
    if not found:
        return None, 'includes no library header'
    top = [l for l in found if all(o == l or o in below[l] for o in found)]
    if len(top) != 1:
        return None, 'no single highest library among ' + ', '.join(sorted(found))
    return top[0], 'tests lib/' + top[0]


# ---------------------------------------------------------------------------------------------
# CMake: a list of commands with their nesting.
CMD_RE = re.compile(r'([A-Za-z_][A-Za-z0-9_]*)[ \t]*\(')


class Cmd:
    def __init__(self, name, args, start, end, parents):
        self.name, self.args, self.start, self.end, self.parents = name.lower(), args, start, end, parents


def parse_cmake(text):
    cmds = []
    stack = []
    pos = 0
    n = len(text)
    while pos < n:
        c = text[pos]
        if c == '#':
            e = text.find('\n', pos)
            pos = n if e < 0 else e + 1
            continue
        if c.isspace():
            pos += 1
            continue
        m = CMD_RE.match(text, pos)
        if not m:
            pos += 1
            continue
        depth = 0
        i = m.end() - 1
        in_str = False
        while i < n:
            ch = text[i]
            if in_str:
                if ch == '\\':
                    i += 2
                    continue
                if ch == '"':
                    in_str = False
            elif ch == '"':
                in_str = True
            elif ch == '#' and not in_str:
                e = text.find('\n', i)
                i = n if e < 0 else e
                continue
            elif ch == '(':
                depth += 1
            elif ch == ')':
                depth -= 1
                if depth == 0:
                    break
            i += 1
        cmd = Cmd(m.group(1), text[m.end():i], m.start(), i + 1, list(stack))
        cmds.append(cmd)
        if cmd.name in ('if', 'foreach', 'function', 'macro', 'while'):
            stack.append(cmd)
        elif cmd.name in ('endif', 'endforeach', 'endfunction', 'endmacro', 'endwhile') and stack:
            opener = stack.pop()
            opener.closer = cmd
        pos = i + 1
    return cmds


def split_args(args):
    return re.findall(r'"(?:\\.|[^"\\])*"|[^\s"]+', re.sub(r'#[^\n]*', '', args))


def line_span(text, start, end):
    s = text.rfind('\n', 0, start) + 1
    e = text.find('\n', end)
    return s, (len(text) if e < 0 else e + 1)


def comment_above(text, start):
    """The comment lines right above the line of `start` (no blank line between)."""
    s = text.rfind('\n', 0, start) + 1
    begin = s
    while begin > 0:
        prev = text.rfind('\n', 0, begin - 1) + 1
        line = text[prev:begin - 1]
        if line.lstrip().startswith('#'):
            begin = prev
        else:
            break
    return begin, s


def relocate(text, old_area):
    return text.replace('${CMAKE_CURRENT_SOURCE_DIR}', '${PROJECT_SOURCE_DIR}/tests/' + old_area)


class Mover:
    def __init__(self):
        self.cmake = {}        # path -> text (edited)
        self.appended = {}     # destination area -> [blocks]

    def text(self, path):
        if path not in self.cmake:
            self.cmake[path] = open(path).read() if os.path.exists(path) else ''
        return self.cmake[path]

    def move(self, src, dest_area, new_name):
        """Moves the CMake of test source `src` (tests/<area>/<file>) to tests/<dest_area>/."""
        area, fname = src.split('/')[1], src.split('/')[2]
        stem = fname[:-len('.cpp')]
        path = f'tests/{area}/CMakeLists.txt'
        text = self.text(path)
        cmds = parse_cmake(text)
        edits = []     # (start, end, replacement) in the source CMake
        block = None
        for c in cmds:
            if c.name != 'add_executable':
                continue
            a = split_args(c.args)
            target, sources = a[0], a[1:]
            if fname in sources or f'${{CMAKE_CURRENT_SOURCE_DIR}}/{fname}' in sources:
                related = [x for x in cmds if x is not c and self.names(x, target)]
                if len(sources) == 1:
                    block, edits = self.whole(text, c, related, area)
                else:
                    block, edits = self.split(text, c, related, area, fname, target, dest_area, stem)
                break
            # foreach(name a b c) add_executable(x_${name}_test ${name}_test.cpp)
            loop = next((p for p in reversed(c.parents) if p.name == 'foreach'), None)
            if loop is not None:
                la = split_args(loop.args)
                var, items = la[0], la[1:]
                for item in items:
                    if any(s.replace('${' + var + '}', item) == fname for s in sources):
                        block, edits = self.from_loop(text, loop, var, item, items, area)
                        break
                if block:
                    break
        if block is None:
            return False
        # variables the old file sets and the block uses come along (set() copied before it)
        sets = {split_args(x.args)[0]: text[x.start:x.end] for x in cmds if x.name == 'set' and split_args(x.args)}
        used = [v for v in dict.fromkeys(re.findall(r'\$\{(\w+)\}', block)) if v in sets]
        if used:
            block = ''.join(dedent(sets[v]) + '\n' for v in used) + block
        if new_name != fname:
            block = re.sub(r'(?<![\w/.])' + re.escape(fname) + r'\b', new_name, block)
        self.cmake[path] = apply(text, edits)
        self.appended.setdefault(dest_area, []).append(relocate(block, area))
        return True

    @staticmethod
    def names(cmd, target):
        a = split_args(cmd.args)
        if not a:
            return False
        if a[0] == target:
            return True
        return cmd.name == 'add_dependencies' and a[0] == 'tsan_tests' and target in a[1:]

    def wrap(self, text, cmd, body):
        """`body` inside the if()s around `cmd` (foreach loops are handled apart)."""
        for p in reversed(cmd.parents):
            if p.name == 'if':
                body = text[p.start:p.end] + '\n' + indent(body) + 'endif()\n'
        return body

    def whole(self, text, c, related, area):
        cs, ce = comment_above(text, c.start)
        parts = [text[cs:ce]] if cs < ce else []
        parts += [text[slice(*line_span(text, x.start, x.end))] for x in sorted([c] + related, key=lambda x: x.start)]
        body = ''.join(dedent(p) for p in parts)
        edits = [(cs, ce, '')] + [line_span(text, x.start, x.end) + ('',) for x in [c] + related]
        # an if() left empty goes too
        for p in c.parents:
            if p.name == 'if' and hasattr(p, 'closer'):
                inner = [x for x in parse_cmake(text) if p.start < x.start < p.closer.start]
                moving = {id(x) for x in [c] + related}
                if all(id(x) in moving for x in inner if x.start >= p.end):
                    edits += [line_span(text, p.start, p.end) + ('',), line_span(text, p.closer.start, p.closer.end) + ('',)]
        return self.wrap(text, c, body), edits

    def split(self, text, c, related, area, fname, target, dest_area, stem):
        new_target = f'{dest_area.replace("-", "_")}_{stem}'
        body = f'add_executable({new_target} {fname})\n'
        for x in sorted(related, key=lambda x: x.start):
            if x.name in ('target_link_libraries', 'target_compile_definitions', 'target_include_directories',
                          'target_compile_options', 'add_dependencies', 'gtest_discover_tests',
                          'set_tests_properties', 'target_sources') and x.name != 'target_sources':
                s = text[x.start:x.end]
                s = re.sub(r'(\(\s*)' + re.escape(target) + r'\b', r'\g<1>' + new_target, s, count=1)
                if x.name == 'add_dependencies' and split_args(x.args)[0] == 'tsan_tests':
                    s = f'add_dependencies(tsan_tests {new_target})'
                body += dedent(s) + '\n'
        # the file leaves the old executable's source list
        old = text[c.start:c.end]
        new = re.sub(r'[ \t]*(?:\$\{CMAKE_CURRENT_SOURCE_DIR\}/)?' + re.escape(fname) + r'[ \t]*\n?', '', old, count=1)
        new = re.sub(r'\n\s*\)$', ')', new)
        return self.wrap(text, c, f'# {stem}, split from {target} (tests/{area}).\n' + body), [(c.start, c.end, new)]

    def from_loop(self, text, loop, var, item, items, area):
        body = text[loop.end:loop.closer.start]
        block = f'foreach({var} {item})' + body + 'endforeach()\n'
        cs, ce = comment_above(text, loop.start)
        comment = text[cs:ce]
        if len(items) == 1:
            edits = [(cs, ce, '')] + [(line_span(text, loop.start, loop.closer.end)[0],
                                       line_span(text, loop.start, loop.closer.end)[1], '')]
        else:
            rest = [x for x in items if x != item]
            edits = [(loop.start, loop.end, f'foreach({var} {" ".join(rest)})')]
        return self.wrap(text, loop, dedent(comment) + block), edits


def indent(s):
    return ''.join('  ' + l if l.strip() else l for l in s.splitlines(True))


def dedent(s):
    lines = s.splitlines(True)
    widths = [len(l) - len(l.lstrip(' ')) for l in lines if l.strip()]
    w = min(widths) if widths else 0
    return ''.join(l[w:] if l.strip() else l for l in lines)


def apply(text, edits):
    out, pos = [], 0
    for s, e, r in sorted(set(edits)):
        if s < pos:
            continue
        out.append(text[pos:s])
        out.append(r)
        pos = e
    out.append(text[pos:])
    text = ''.join(out)
    while True:  # if() blocks left empty
        t2 = re.sub(r'(?m)^[ \t]*if\([^\n]*\)[ \t]*\n(?:[ \t]*\n)*[ \t]*endif\(\)[ \t]*\n', '', text)
        if t2 == text:
            break
        text = t2
    return re.sub(r'\n{3,}', '\n\n', text).lstrip('\n')


def main():
    libs, below = libraries()
    tests = []
    for area in sorted(os.listdir('tests')):
        d = os.path.join('tests', area)
        if os.path.isdir(d) and os.path.isfile(os.path.join(d, 'CMakeLists.txt')):
            tests += [os.path.join(d, f) for f in sorted(os.listdir(d)) if TEST_SOURCE.match(f)]
    mover = Mover()
    moves = []
    for t in tests:
        area = t.split('/')[1]
        dest, why = destination(t, libs, below)
        if dest is None:
            if area in libs or area in FOLDER_ALIASES:
                log(f'left in place: {t} ({why})')
            continue
        if dest == area:
            continue
        fname = t.split('/')[2]
        new_name = fname
        if fname == 'cli_test.cpp' or os.path.exists(f'tests/{dest}/{fname}') or \
                any(d == dest and n == fname for _, d, _, n in moves):
            new_name = f'{area}_{fname}'
        if mover.move(t, dest, new_name):
            moves.append((t, dest, why, new_name))
        else:
            log(f'left in place: {t} (its CMake is not a form this script knows; move it by hand)')
    if DRY:
        for t, dest, why, new_name in moves:
            print(f'{t} -> tests/{dest}/{new_name} ({why})')
        return
    for t, dest, why, new_name in moves:
        area = t.split('/')[1]
        os.makedirs(f'tests/{dest}', exist_ok=True)
        subprocess.run(['git', 'mv', t, f'tests/{dest}/{new_name}'], check=True)
        # quoted includes of files that stay in the old folder
        p = f'tests/{dest}/{new_name}'
        src = open(p).read()

        def fix(m):
            inc = m.group(2)
            if os.path.isfile(os.path.join('tests', area, inc)) and not os.path.isfile(os.path.join('tests', dest, inc)):
                return f'{m.group(1)}"../{area}/{inc}"'
            return m.group(0)
        src2 = re.sub(r'(#\s*include\s*)"([^"/][^"]*)"', fix, src)
        if src2 != src:
            open(p, 'w').write(src2)
        print(f'{t} -> tests/{dest}/{new_name} ({why})')
    for path, text in mover.cmake.items():
        open(path, 'w').write(text)
    for dest, blocks in mover.appended.items():
        path = f'tests/{dest}/CMakeLists.txt'
        existing = open(path).read() if os.path.exists(path) else ''
        if not existing:
            subject = f'lib/{dest}' if dest in libs else ('tools/dispatch-inspect' if dest == 'inspect' else f'tools/{dest}')
            existing = f'# Tests of {subject}.\n'
        text = existing.rstrip('\n') + '\n\n' + '\n'.join(b.rstrip('\n') + '\n' for b in blocks)
        open(path, 'w').write(text)
        subprocess.run(['git', 'add', path], check=True)
    # a CMakeLists.txt left with no test is removed with its folder's tests
    for path in list(mover.cmake):
        if not re.search(r'add_executable|add_test|add_library|add_subdirectory', mover.cmake[path]):
            log(f'{path} defines nothing any more: check and remove it by hand')


if __name__ == '__main__':
    main()
