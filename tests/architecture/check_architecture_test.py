#!/usr/bin/env python3
"""check_architecture.py on small trees made to break each limit: every check fails there and
names what is wrong, and passes on the same tree put right."""
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

CHECKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "check_architecture.py")

DESIGN = """\
# design

this is the whole graph:

```
lib/common/support           (none)
lib/frontend/lint              support                       private: PEGTL
lib/runtime/core              support                       (shared)
tools/cli             lint
```
"""
LINKS = [
    ("schemac_support", "STATIC_LIBRARY", "lib/common/support", "Threads::Threads", "Threads::Threads"),
    ("schemac_lint", "STATIC_LIBRARY", "lib/frontend/lint", "schemac_support;taocpp::pegtl;fmt::fmt",
     "schemac_support;private:taocpp::pegtl;fmt::fmt"),
    ("schemac_core", "SHARED_LIBRARY", "lib/runtime/core", "schemac_support", "schemac_support"),
    ("tool", "EXECUTABLE", "tools/cli", "schemac_lint;CLI11::CLI11", ""),
]


def write(root, path, text):
    full = os.path.join(root, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w", encoding="utf-8") as f:
        f.write(text)


def run(root, *args):
    result = subprocess.run([sys.executable, CHECKER, args[0], "--root", root, *args[1:]],
                            capture_output=True, text=True)
    return result.returncode, result.stdout + result.stderr


class Tree(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.root = self.dir.name
        write(self.root, "docs/design.md", DESIGN)
        for folder in ("lib/common/support", "lib/frontend/lint", "lib/runtime/core", "tools/cli"):
            write(self.root, f"{folder}/src/a.cpp", "int a() { return 1; }\n")
        self.links = os.path.join(self.root, "links.tsv")
        self.write_links(LINKS)

    def tearDown(self):
        self.dir.cleanup()

    def write_links(self, rows):
        with open(self.links, "w", encoding="utf-8") as f:
            for row in rows:
                f.write("\t".join(row) + "\n")

    def test_graph_passes_when_equal(self):
        rc, out = run(self.root, "graph", "--links", self.links)
        self.assertEqual(rc, 0, out)

    def test_graph_missing_folder_prints_the_line_to_add(self):
        self.write_links(LINKS + [("schemac_gemm", "SHARED_LIBRARY", "lib/runtime/gemm",
                                   "schemac_support", "")])
        rc, out = run(self.root, "graph", "--links", self.links)
        self.assertEqual(rc, 1)
        self.assertIn("the graph has no line for lib/runtime/gemm", out)
        self.assertIn("lib/runtime/gemm               (none)  private: support  (shared)", out)

    def test_graph_wrong_visibility_and_missing_dependency(self):
        rows = list(LINKS)
        rows[3] = ("tool", "EXECUTABLE", "tools/cli", "schemac_lint;schemac_core", "")
        rows[1] = ("schemac_lint", "STATIC_LIBRARY", "lib/frontend/lint", "schemac_support;taocpp::pegtl",
                   "private:schemac_support;private:taocpp::pegtl")
        self.write_links(rows)
        rc, out = run(self.root, "graph", "--links", self.links)
        self.assertEqual(rc, 1)
        self.assertIn("tools/cli: CMake links core (public), the graph does not say so", out)
        self.assertIn("it links support privately in CMake, the graph says public", out)
        self.assertIn("lib/frontend/lint              (none)  private: support PEGTL", out)

    def test_graph_names_an_unknown_word_and_a_stale_line(self):
        write(self.root, "docs/design.md", DESIGN.replace("tools/cli             lint",
                                                          "tools/cli             lint yaml-cpp\n"
                                                          "tools/gone            lint"))
        rc, out = run(self.root, "graph", "--links", self.links)
        self.assertEqual(rc, 1)
        self.assertIn("yaml-cpp: not a folder of lib/ or tools/", out)
        self.assertIn("tools/gone does not exist: remove its line", out)

    def test_graph_checks_shared(self):
        write(self.root, "docs/design.md", DESIGN.replace("(shared)", ""))
        rc, out = run(self.root, "graph", "--links", self.links)
        self.assertEqual(rc, 1)
        self.assertIn('the line needs "(shared)"', out)

    def test_library_and_file_sizes(self):
        self.assertEqual(run(self.root, "library_sizes")[0], 0)
        for i in range(6):
            write(self.root, f"lib/frontend/lint/src/part{i}.cpp", "int x;\n" * 550)
        rc, out = run(self.root, "library_sizes")
        self.assertEqual(rc, 1)
        self.assertIn("lib/frontend/lint has 3301 lines", out)
        self.assertEqual(run(self.root, "file_sizes")[0], 0)
        write(self.root, "tests/lint/big_test.cpp", "int y;\n" * 601)
        write(self.root, "golden/big.cpp", "int y;\n" * 900)  # golden files are not counted
        rc, out = run(self.root, "file_sizes")
        self.assertEqual(rc, 1)
        self.assertIn("tests/lint/big_test.cpp has 601 lines (limit 600)", out)
        self.assertNotIn("golden", out)

    def test_shell_sizes(self):
        write(self.root, "tools/schemac/main.cpp", "int z;\n" * 1100)
        write(self.root, "tools/lsp/main.cpp", "int z;\n" * 1100)  # any other shell too
        write(self.root, "tools/dispatch-inspect/main.cpp", "int z;\n" * 2400)
        write(self.root, "tools/dispatch-inspect/torch/torch_main.cpp", "int z;\n" * 500)
        self.assertEqual(run(self.root, "shell_sizes")[0], 0)
        write(self.root, "tools/schemac/more.cpp", "int w;\n")
        write(self.root, "tools/lsp/more.cpp", "int w;\n")
        write(self.root, "tools/dispatch-inspect/more.cpp", "int w;\n" * 101)
        rc, out = run(self.root, "shell_sizes")
        self.assertEqual(rc, 1)
        self.assertIn("tools/schemac has 1101 lines (limit 1100)", out)
        self.assertIn("tools/lsp has 1101 lines (limit 1100)", out)
        self.assertIn("tools/dispatch-inspect without tools/dispatch-inspect/torch has 2501 lines "
                      "(limit 2500)", out)

    def test_forward_declarations(self):
        write(self.root, "lib/frontend/lint/include/schemac/lint/a.h", textwrap.dedent("""\
            #pragma once
            #include "schemac/core/fwd.h"
            namespace schemac::lint {
            // namespace schemac::core { is only a comment
            const char* s = "namespace schemac::core {";
            }  // namespace schemac::lint
            """))
        self.assertEqual(run(self.root, "forward_declarations")[0], 0)
        write(self.root, "lib/frontend/lint/include/schemac/lint/b.h", textwrap.dedent("""\
            #pragma once
            namespace schemac::core {
            class IValue;
            }
            namespace schemac {
            namespace core {
            class Tensor;
            }
            }
            """))
        rc, out = run(self.root, "forward_declarations")
        self.assertEqual(rc, 1)
        self.assertIn("lib/frontend/lint/include/schemac/lint/b.h:2: opens namespace schemac::core", out)
        self.assertIn("lib/frontend/lint/include/schemac/lint/b.h:6: opens namespace schemac::core", out)

    def test_duplicates(self):
        block = textwrap.dedent("""\
              int sum = a + b;
              if (sum > limit(a)) return clamp(sum, b);
              for (int i = 0; i < b; ++i) sum += table[i] * a;
              std::string name = lookup(sum).name();
              while (!name.empty() && name.back() == ' ') name.pop_back();
              log("total", name, sum);
            """)
        for n in range(5):
            write(self.root, f"lib/frontend/lint/src/copy{n}.cpp",
                  f"int f{n}(int a, int b) {{\n{block}  return a;\n}}\n")
        rc, out = run(self.root, "duplicates")
        self.assertEqual(rc, 0, out)
        self.assertIn("10 pairs of files", out)
        # The same code under tests/ and golden/ is not counted.
        write(self.root, "tests/lint/copy.cpp", f"int t(int a, int b) {{\n{block}}}\n")
        self.assertIn("10 pairs of files", run(self.root, "duplicates")[1])
        # Renamed copies count too; 8 files make 28 pairs, over the limit of 25.
        os.remove(os.path.join(self.root, "tests/lint/copy.cpp"))
        for n in range(5, 8):
            write(self.root, f"lib/runtime/core/src/copy{n}.cpp",
                  "int g(int x, int y) {\n" + block.replace("a, b", "x, y") + "  return x;\n}\n")
        rc, out = run(self.root, "duplicates")
        self.assertEqual(rc, 1)
        self.assertIn("28 duplicate pairs outside golden/ and tests/ (limit 25)", out)
        # A run in more than 8 places (tests/ included: boilerplate every file has) is too common
        # to count.
        for n in range(8, 9):
            write(self.root, f"lib/runtime/core/src/copy{n}.cpp",
                  "int g(int x, int y) {\n" + block.replace("a, b", "x, y") + "  return x;\n}\n")
        rc, out = run(self.root, "duplicates")
        self.assertEqual(rc, 0, out)


if __name__ == "__main__":
    unittest.main()
