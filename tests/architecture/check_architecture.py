#!/usr/bin/env python3
"""The architecture's limits, one check per subcommand (tests/architecture/README.md).

  graph --links FILE     docs/design.md's dependency graph equals CMake's links (FILE is written
                         by tests/architecture/CMakeLists.txt at configure time)
  library_sizes          every library (lib/SUBSYSTEM/X, tools/cli) <= 3,000 lines of .h .hpp .cpp .cu .cuh
  file_sizes             every source file <= 600 lines
  shell_sizes            each command-line shell (tools/T) <= 1,100 lines; the inspector
                         (tools/dispatch-inspect, without its torch helper) <= 2,500
  forward_declarations   no file under lib/SUBSYSTEM/X opens namespace schemac::Y for another library Y
  duplicates             <= 25 pairs of places sharing 6 or more lines, outside golden/ and tests/

Each prints what it measured and exits 1 naming every violation.
"""
import argparse
import itertools
import os
import re
import sys
from collections import defaultdict

CODE_SUFFIXES = (".h", ".hpp", ".cpp", ".cu", ".cuh")
LIBRARY_LIMIT = 3000
FILE_LIMIT = 600
SHELL_LIMIT = 1100
# A shell with a limit of its own, and the folders under it that are not counted.
SHELL_LIMITS = {"tools/dispatch-inspect": 2500}
SHELL_EXCLUDED = {"tools/dispatch-inspect": ["tools/dispatch-inspect/torch"]}
# tools/ folders that are libraries, not command-line shells.
TOOL_LIBRARIES = ["tools/cli"]
DUPLICATE_LIMIT = 25
DUPLICATE_MIN_LINES = 6
DUPLICATE_MAX_PLACES = 8  # a run in more places than this is too common to count

# The third-party libraries the graph names (the ones that matter to where the cuts are), by
# their CMake targets; like the project's libraries they must be listed exactly where linked.
# Other third-party links (fmt, CLI11, nlohmann-json, threads) are not part of the graph.
THIRD_PARTY = {
    "PEGTL": "taocpp::pegtl",
    "libyaml": "PkgConfig::libyaml",
    "libtorch": "torch",
}
THIRD_PARTY_NAMES = {target: name for name, target in THIRD_PARTY.items()}


def fail(messages):
    for message in messages:
        print(f"error: {message}")
    return 1 if messages else 0


def count_lines(path):
    with open(path, "rb") as f:
        return f.read().count(b"\n")


def code_files(folder, suffixes=CODE_SUFFIXES, excluded=()):
    for base, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if os.path.join(base, d) not in excluded)
        for name in sorted(files):
            if name.endswith(suffixes):
                yield os.path.join(base, name)


def folder_lines(root, folder, excluded=()):
    excluded = {os.path.join(root, e) for e in excluded}
    return sum(count_lines(p) for p in code_files(os.path.join(root, folder), excluded=excluded))


def subfolders(root, folder):
    path = os.path.join(root, folder)
    return [f"{folder}/{d}" for d in sorted(os.listdir(path)) if os.path.isdir(os.path.join(path, d))]


def libraries(root):
    """lib/SUBSYSTEM/X for each library (lib/ holds one folder per subsystem), and tools/cli."""
    found = [library for subsystem in subfolders(root, "lib") for library in subfolders(root, subsystem)]
    return found + [t for t in TOOL_LIBRARIES if os.path.isdir(os.path.join(root, t))]


# ## Sizes

def check_library_sizes(root):
    errors = []
    for library in libraries(root):
        lines = folder_lines(root, library)
        print(f"{library}: {lines} lines")
        if lines > LIBRARY_LIMIT:
            errors.append(f"{library} has {lines} lines of {' '.join(CODE_SUFFIXES)} "
                          f"(limit {LIBRARY_LIMIT}): split it along a seam")
    return fail(errors)


# Source files anywhere in the tree but the golden files, test data and fuzz corpora.
SOURCE_SUFFIXES = CODE_SUFFIXES + (".cc", ".py", ".cmake", ".sh", ".lua", ".js")
SKIPPED_FOLDERS = {"golden", "data", "corpus", ".git"}


def source_files(root, skipped=SKIPPED_FOLDERS):
    for base, dirs, files in os.walk(root):
        rel = os.path.relpath(base, root)
        dirs[:] = sorted(d for d in dirs if d not in skipped and not
                         (rel == "." and (d.startswith("build") or d.startswith("."))))
        for name in sorted(files):
            if name.endswith(SOURCE_SUFFIXES) or name == "CMakeLists.txt":
                yield os.path.join(base, name)


def check_file_sizes(root):
    errors = []
    files = list(source_files(root))
    for path in files:
        lines = count_lines(path)
        if lines > FILE_LIMIT:
            errors.append(f"{os.path.relpath(path, root)} has {lines} lines (limit {FILE_LIMIT}): "
                          "split it by job")
    print(f"{len(files)} source files, {len(errors)} over {FILE_LIMIT} lines")
    return fail(errors)


def check_shell_sizes(root):
    errors = []
    tools = sorted(f"tools/{d}" for d in os.listdir(os.path.join(root, "tools"))
                   if os.path.isdir(os.path.join(root, "tools", d)))
    for tool in tools:
        if tool in TOOL_LIBRARIES:
            continue
        limit = SHELL_LIMITS.get(tool, SHELL_LIMIT)
        excluded = SHELL_EXCLUDED.get(tool, [])
        lines = folder_lines(root, tool, excluded)
        without = f" without {', '.join(excluded)}" if excluded else ""
        print(f"{tool}{without}: {lines} lines")
        if lines > limit:
            errors.append(f"{tool}{without} has {lines} lines (limit {limit}): a command-line "
                          "shell parses options and prints; move the engine into a library")
    return fail(errors)


# ## Forward declarations: namespaces = folders

def strip_comments_and_strings(text):
    pattern = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
    return pattern.sub(lambda m: "\n" * m.group(0).count("\n") if m.group(0)[0] == "/" else '""',
                       text)


NAMESPACE_OR_BRACE = re.compile(r"\bnamespace\s+([A-Za-z_][\w:]*)?\s*\{|\{|\}")


def opened_namespaces(text):
    """(line, fully qualified name) of each namespace the text opens."""
    text = strip_comments_and_strings(text)
    stack = []  # one entry per open brace: the namespace's name, or None
    opened = []
    for m in NAMESPACE_OR_BRACE.finditer(text):
        token = m.group(0)
        if token == "}":
            if stack:
                stack.pop()
            continue
        if token == "{":
            stack.append(None)
            continue
        name = m.group(1) or "(anonymous)"
        outer = [n for n in stack if n]
        full = "::".join(outer + [name])
        stack.append(name)
        opened.append((text.count("\n", 0, m.start()) + 1, full))
    return opened


def check_forward_declarations(root):
    errors = []
    count = 0
    for library in libraries(root):
        if not library.startswith("lib/"):
            continue
        own = library.rsplit("/", 1)[1]
        folder_of = {l.rsplit("/", 1)[1]: l for l in libraries(root) if l.startswith("lib/")}
        for path in code_files(os.path.join(root, library)):
            count += 1
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
            for line, name in opened_namespaces(text):
                parts = name.split("::")
                if parts[0] == "schemac" and len(parts) > 1 and parts[1] != own:
                    errors.append(
                        f"{os.path.relpath(path, root)}:{line}: opens namespace {name}, which "
                        f"belongs to {folder_of.get(parts[1], 'lib/…/' + parts[1])}: include that library's own header for its "
                        f"declarations (for example schemac/{parts[1]}/fwd.h)")
    print(f"{count} files under lib/ read")
    return fail(errors)


# ## The design's dependency graph

def graph_block(root):
    """The lines of docs/design.md's graph: the fenced block after 'the whole graph'."""
    path = os.path.join(root, "docs", "design.md")
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    start = next((i for i, l in enumerate(lines) if "the whole graph" in l), None)
    if start is None:
        raise SystemExit("error: docs/design.md: no paragraph saying 'the whole graph'")
    fence = next(i for i in range(start, len(lines)) if lines[i].startswith("```"))
    end = next(i for i in range(fence + 1, len(lines)) if lines[i].startswith("```"))
    return [(n + 1, lines[n]) for n in range(fence + 1, end)]


def parse_graph_line(text):
    """(folder, public names, private names, shared) of one graph line; notes in () are dropped,
    but for "(shared)", which says the folder's library is a shared library."""
    shared = "(shared)" in text
    text = re.sub(r"\([^)]*\)", " ", text)
    public, _, private = text.partition("private:")
    words = public.split()
    return words[0], words[1:], private.split(), shared


def load_links(path):
    targets = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            name, kind, folder, links, interface = (line.rstrip("\n").split("\t") + [""] * 5)[:5]
            targets[name] = (kind, folder, [l for l in links.split(";") if l],
                             [l for l in interface.split(";") if l])
    return targets


def real_graph(targets):
    """{folder: {dependency: 'public' | 'private'}}: project folders and third-party targets.

    A dependency is public when a library of the folder links it publicly or a program of the
    folder links it (nothing links a program, so its links have no private side); private
    otherwise."""
    graph = defaultdict(dict)
    for name, (kind, folder, links, interface) in targets.items():
        graph[folder]
        public = {l for l in interface if not l.startswith("private:")}
        for link in links:
            dep = targets[link][1] if link in targets else link
            if dep == folder:
                continue
            visibility = "public" if kind == "EXECUTABLE" or link in public else "private"
            if graph[folder].get(dep) != "public":
                graph[folder][dep] = visibility
    return graph


def short_names(folders):
    """The names the graph may use for each folder: the path, or its last part when unique."""
    last = defaultdict(list)
    for folder in folders:
        last[folder.rsplit("/", 1)[-1]].append(folder)
    names = {folder: folder for folder in folders}
    for short, owners in last.items():
        if len(owners) == 1:
            names[short] = owners[0]
    return names


def display_name(folder, folders):
    short = folder.rsplit("/", 1)[-1]
    return short if short_names(folders).get(short) == folder else folder


def expected_line(folder, deps, folders, order, shared):
    def names(visibility):
        project = [d for d in deps if deps[d] == visibility and d in folders]
        project.sort(key=lambda d: (order.get(d, len(order)), d))
        third = sorted(THIRD_PARTY_NAMES[d] for d in deps
                       if deps[d] == visibility and d in THIRD_PARTY_NAMES)
        return [display_name(d, folders) for d in project] + third
    public, private = names("public"), names("private")
    line = f"{folder:<30} {' '.join(public) if public else '(none)'}"
    if private:
        line += f"  private: {' '.join(private)}"
    return line + ("  (shared)" if shared else "")


def check_graph(root, links_path):
    targets = load_links(links_path)
    real = real_graph(targets)
    shared_folders = {folder for kind, folder, _, _ in targets.values() if kind == "SHARED_LIBRARY"}
    folders = sorted(real)
    names = short_names(folders)
    errors = []
    stated = {}
    order = {}
    for number, text in graph_block(root):
        if not text.strip():
            continue
        folder, public, private, shared = parse_graph_line(text)
        where = f"docs/design.md:{number}"
        if folder in stated:
            errors.append(f"{where}: {folder} has a second line")
            continue
        order[folder] = len(order)
        deps = {}
        unknown = []
        for visibility, words in (("public", public), ("private", private)):
            for word in words:
                dep = names.get(word) or THIRD_PARTY.get(word)
                if dep is None:
                    unknown.append(word)
                else:
                    deps[dep] = visibility
        if unknown:
            errors.append(f"{where}: {folder}: {', '.join(unknown)}: not a folder of lib/ or "
                          f"tools/ that defines targets, nor a third-party library the graph names "
                          f"({', '.join(sorted(THIRD_PARTY))})")
        stated[folder] = (where, deps, shared)
    for folder, (where, deps, shared) in stated.items():
        if folder not in real:
            if os.path.isdir(os.path.join(root, folder)):
                print(f"{where}: {folder} defines no target in this configuration; not checked")
            else:
                errors.append(f"{where}: {folder} does not exist: remove its line")
            continue
        have = real[folder]
        differences = []
        for dep in sorted(set(have) | set(deps)):
            is_project = dep in real
            if not is_project and dep not in THIRD_PARTY_NAMES:
                continue  # third-party links the graph does not name
            label = display_name(dep, folders) if is_project else THIRD_PARTY_NAMES[dep]
            if dep not in have:
                differences.append(f"the graph says it links {label}, CMake does not")
            elif dep not in deps:
                differences.append(f"CMake links {label} ({have[dep]}), the graph does not say so")
            elif have[dep] != deps[dep]:
                differences.append(f"it links {label} {have[dep]}ly in CMake, the graph says "
                                   f"{deps[dep]}")
        is_shared = folder in shared_folders
        if shared != is_shared:
            differences.append("its library is " + ("" if is_shared else "not ") +
                               "a shared library: the line " +
                               ("needs" if is_shared else "must not have") + " \"(shared)\"")
        if differences:
            errors.append(f"{where}: {folder}: {'; '.join(differences)}. Write its line as:\n"
                          f"    {expected_line(folder, have, real, order, is_shared)}")
    for folder in folders:
        if folder not in stated:
            errors.append(f"docs/design.md: the graph has no line for {folder} (targets: "
                          f"{', '.join(sorted(t for t in targets if targets[t][1] == folder))}). "
                          "Add this line:\n    "
                          f"{expected_line(folder, real[folder], real, order, folder in shared_folders)}")
    print(f"{len(stated)} graph lines, {len(folders)} folders with targets")
    return fail(errors)


# ## Duplicates

DUPLICATE_SUFFIXES = (".c", ".cc", ".cpp", ".cxx", ".h", ".hh", ".hpp", ".cu", ".cuh", ".py",
                      ".cmake", ".sh", ".js", ".lua")
CPP_KEYWORDS = set("""alignas alignof auto bool break case catch char class const constexpr
consteval constinit continue co_await co_return co_yield decltype default delete do double else
enum explicit export extern false float for friend goto if inline int long mutable namespace new
noexcept nullptr operator private protected public register return short signed sizeof static
static_assert static_cast dynamic_cast reinterpret_cast const_cast struct switch template this
throw true try typedef typename union unsigned using virtual void volatile while override final
and or not def elif except finally from in is lambda pass raise with yield None True False self
function endfunction foreach endforeach endif set""".split())
TOKEN = re.compile(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'|[A-Za-z_]\w*|\d[\w.]*|\S')


def normalised_lines(path):
    """(line number, shape) of each line that counts: comments, blank lines, lines of
    punctuation alone and include/import lines are passed over; names, strings and numbers become
    placeholders, so lines alike but for them have the same shape."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    hash_comments = path.endswith((".py", ".cmake", ".sh")) or path.endswith("CMakeLists.txt")
    if not hash_comments:
        text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    out = []
    for number, line in enumerate(text.split("\n"), 1):
        line = re.sub(r"\s+#.*$" if hash_comments else r"//.*$", "", line).strip()
        if hash_comments and line.startswith("#"):
            continue
        if not line or re.fullmatch(r"[\W_]*", line) and not re.search(r"\w", line):
            continue
        if re.match(r"(#\s*include|#\s*pragma once|import |from \S+ import |namespace [\w:]* *\{$|"
                    r"(public|private|protected):$)", line):
            continue
        shape = []
        for token in TOKEN.findall(line):
            if token[0] in "\"'":
                shape.append("S")
            elif token[0].isdigit():
                shape.append("0")
            elif token[0].isalpha() or token[0] == "_":
                shape.append(token if token in CPP_KEYWORDS else "\0" + token)
            else:
                shape.append(token)
        if all(t in ("S", "0") or not t[0].isalnum() and t[0] not in "_\0" for t in shape):
            continue  # a line of literals alone (a string continued, a row of numbers)
        out.append((number, " ".join(shape)))
    return out


NAME_MARK = re.compile("\0(\\w+)")


def window_shapes(lines):
    """Two shapes of a run of lines: names renamed consistently (numbered by their first use in
    the run: runs match when one is the other with its names renamed), and every name alike."""
    numbers = {}
    text = "\n".join(shape for _, shape in lines)
    strict = NAME_MARK.sub(lambda m: "N%d" % numbers.setdefault(m.group(1), len(numbers)), text)
    return strict, NAME_MARK.sub("N", text)


def duplicate_pairs(root, skipped=("golden", "tests")):
    """{(file, file): (place, place)} for each two files (or two places of one file) that share a
    run of DUPLICATE_MIN_LINES lines of one shape, leaving out runs whose loose shape stands in
    more than DUPLICATE_MAX_PLACES places (too common: switch tables, enums, lists of strings)."""
    strict_places = defaultdict(list)
    loose_count = defaultdict(int)
    file_windows = []
    # Every source file counts for how common a run is; pairs are reported outside `skipped`.
    files = [p for p in source_files(root, {".git"})
             if p.endswith(DUPLICATE_SUFFIXES) or p.endswith("CMakeLists.txt")]
    for path in files:
        rel = os.path.relpath(path, root)
        lines = normalised_lines(path)
        shapes = [window_shapes(lines[i:i + DUPLICATE_MIN_LINES])
                  for i in range(len(lines) - DUPLICATE_MIN_LINES + 1)]
        file_windows.append((rel, lines, shapes))
        for _, loose in shapes:
            loose_count[loose] += 1
    for rel, lines, shapes in file_windows:
        common = [loose_count[loose] > DUPLICATE_MAX_PLACES for _, loose in shapes]
        for i, (strict, _) in enumerate(shapes):
            # A run is too common when it, or a run up to two lines before or after it, stands
            # in too many places (the first and last windows of a long switch table or enum).
            if not any(common[max(0, i - 2):i + 3]):
                strict_places[strict].append((rel, i, lines[i][0]))
    pairs = {}
    for places in strict_places.values():
        if len(places) < 2:
            continue
        for (fa, ia, la), (fb, ib, lb) in itertools.combinations(places, 2):
            if fa.split("/", 1)[0] in skipped or fb.split("/", 1)[0] in skipped:
                continue
            if fa == fb and abs(ia - ib) < DUPLICATE_MIN_LINES:
                continue  # overlapping windows of one file
            key = tuple(sorted([fa, fb]))
            pairs.setdefault(key, (f"{fa}:{la}", f"{fb}:{lb}"))
    return sum(1 for p in files if os.path.relpath(p, root).split("/", 1)[0] not in skipped), pairs


def check_duplicates(root):
    count, pairs = duplicate_pairs(root)
    for a, b in sorted(pairs.values()):
        print(f"{a} ~ {b}")
    print(f"{len(pairs)} pairs of files sharing runs of {DUPLICATE_MIN_LINES} or more lines of the "
          f"same shape ({count} files outside golden/ and tests/; limit {DUPLICATE_LIMIT})")
    if len(pairs) > DUPLICATE_LIMIT:
        return fail([f"{len(pairs)} duplicate pairs outside golden/ and tests/ (limit "
                     f"{DUPLICATE_LIMIT}): make one piece of code serve where the logic is the "
                     "same (the pairs are listed above)"])
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("check", choices=["graph", "library_sizes", "file_sizes", "shell_sizes",
                                          "forward_declarations", "duplicates"])
    parser.add_argument("--root", default=os.path.join(os.path.dirname(__file__), "..", ".."))
    parser.add_argument("--links", help="the links file CMake wrote (graph)")
    args = parser.parse_args()
    root = os.path.abspath(args.root)
    if args.check == "graph":
        if not args.links:
            parser.error("graph needs --links FILE")
        return check_graph(root, args.links)
    return globals()[f"check_{args.check}"](root)


if __name__ == "__main__":
    sys.exit(main())
