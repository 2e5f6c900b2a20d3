// Diagnostics of found schemas mapped into the source file, and the rules across files.
#include <gtest/gtest.h>

#include "scan_test_support.h"
#include "schemac/sources/registration_lint.h"

namespace schemac::sources::test {
namespace {

using diagnostics::Diagnostic;

std::vector<Diagnostic> lint(std::vector<std::pair<std::string, std::string>> files) {
  std::vector<ScannedFile> scanned;
  for (auto& [path, text] : files) {
    scanned.push_back({path, scan_source(text, *language_for_path(path))});
  }
  return lint_sources(scanned);
}

TEST(SourcesLint, DuplicateArgumentPointsIntoTheLiteral) {
  // The real mistake of vllm csrc/torch_bindings.cpp: `Tensor q_seqlens, Tensor q_seqlens`.
  std::vector<Diagnostic> d = lint({{"b.cpp",
                                     "TORCH_LIBRARY(v, ops) {\n"
                                     "  ops.def(\"conv(Tensor! count, \"\n"
                                     "          \"Tensor q_seqlens, Tensor q_seqlens) -> ()\");\n"
                                     "}\n"}});
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].rule, "duplicate-argument");
  EXPECT_EQ(d[0].location.file, "b.cpp");
  EXPECT_EQ(d[0].location.line, 3u);
  EXPECT_EQ(d[0].location.column, 37u);
  EXPECT_EQ(d[0].location.end_column, 46u);
}

TEST(SourcesLint, SyntaxErrorAfterAnEscapeMapsToTheEscape) {
  // \x3b is ';', which cannot follow an argument name.
  std::vector<Diagnostic> d =
      lint({{"e.cpp", "void f(Library& m) { m.def(\"f(Tensor x\\x3b) -> int\"); }"}});
  ASSERT_FALSE(d.empty());
  EXPECT_EQ(d[0].rule, "schema-syntax");
  EXPECT_EQ(d[0].location.line, 1u);
  EXPECT_EQ(d[0].location.column, 39u);  // the backslash of \x3b
}

TEST(SourcesLint, RangeAcrossLiteralsShrinksToItsFirstCharacter) {
  ScanResult r = scan_cpp("void f(Library& m) { m.def(\"ab\" \"cd(int x) -> int\"); }");
  ASSERT_EQ(r.schemas.size(), 1u);
  diagnostics::Location l = location_in("x.cpp", r.schemas[0].text, 1, 3);
  EXPECT_EQ(l.column, 30u);
  EXPECT_EQ(l.end_column, 31u);
  diagnostics::Location whole = location_in("x.cpp", r.schemas[0].text, 0, 2);
  EXPECT_EQ(whole.end_column, 31u);
}

TEST(SourcesLint, DuplicateDefinitionAcrossFilesWithNote) {
  std::vector<Diagnostic> d =
      lint({{"a.cpp", "TORCH_LIBRARY(ns, m) { m.def(\"f(int x) -> int\"); }"},
            {"b.py", "lib = Library('ns', 'FRAGMENT')\nlib.define('f(int y) -> int')\n"}});
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].rule, "duplicate-definition");
  EXPECT_EQ(d[0].message, "operator 'ns::f' is defined twice");
  EXPECT_EQ(d[0].location.file, "b.py");
  ASSERT_EQ(d[0].notes.size(), 1u);
  EXPECT_EQ(d[0].notes[0].location.file, "a.cpp");
  EXPECT_EQ(d[0].notes[0].location.column, 30u);
}

TEST(SourcesLint, OverloadsAndExclusiveBranchesAreNotDuplicates) {
  std::vector<Diagnostic> d = lint({{"a.cpp",
                                     "TORCH_LIBRARY(ns, m) {\n"
                                     "  m.def(\"f(int x) -> int\");\n"
                                     "  m.def(\"f.two(int x, int y) -> int\");\n"
                                     "#if A\n  m.def(\"g(int x) -> int\");\n#elif B\n"
                                     "  m.def(\"g(int x) -> int\");\n#endif\n}\n"}});
  EXPECT_TRUE(d.empty());
}

TEST(SourcesLint, UnknownNamespacesCompareOnlyWithinOneFile) {
  // vllm's CPU and CUDA bindings both define under TORCH_EXTENSION_NAME; one build takes one.
  std::string text =
      "TORCH_LIBRARY_EXPAND(TORCH_EXTENSION_NAME, ops) { ops.def(\"f(int x) -> int\"); }";
  EXPECT_TRUE(lint({{"cuda.cpp", text}, {"cpu.cpp", text}}).empty());
  std::string twice =
      "TORCH_LIBRARY_EXPAND(NAME, ops) {\n  ops.def(\"f(int x) -> int\");\n"
      "  ops.def(\"f(int y) -> int\");\n}\n";
  EXPECT_EQ(lint({{"twice.cpp", twice}}).size(), 1u);
  // Blocks under composed macro names are different libraries (seen in vllm).
  EXPECT_TRUE(lint({{"two_blocks.cpp", text + "\n" +
                                           "TORCH_LIBRARY_EXPAND(CONCAT(TORCH_EXTENSION_NAME, _x), "
                                           "x) { x.def(\"f(int x) -> int\"); }"}})
                  .empty());
}

TEST(SourcesLint, DefsInRunTimeLibrariesDoNotClash) {
  // PyTorch's own tests register `dummy` into a fresh library in each test function.
  std::vector<Diagnostic> d = lint(
      {{"t.cpp",
        "void a() { auto m = MAKE_TORCH_LIBRARY(_test); m.def(\"dummy(int x) -> int\"); }\n"
        "void b() { auto m = MAKE_TORCH_LIBRARY(_test); m.def(\"dummy(int x) -> int\"); }\n"}});
  EXPECT_TRUE(d.empty());
}

TEST(SourcesLint, PythonDefinitionsInsideFunctionsDoNotClash) {
  // Seen in PyTorch-derived test suites: each test defines "mylib::foo" with custom_op.
  std::string test =
      "    @torch.library.custom_op(\"mylib::foo\", mutates_args=())\n"
      "    def foo(x: torch.Tensor) -> torch.Tensor: ...\n";
  EXPECT_TRUE(lint({{"t.py", "def test_a():\n" + test + "def test_b():\n" + test}}).empty());
  std::string module =
      "@torch.library.custom_op(\"mylib::foo\", mutates_args=())\n"
      "def foo(x: torch.Tensor) -> torch.Tensor: ...\n";
  EXPECT_EQ(lint({{"m.py", module + module}}).size(), 1u);
  // A function's end is its dedent, whatever brackets span lines inside it.
  EXPECT_EQ(lint({{"m.py", "def f():\n    x = (\n1)\n" + module + module}}).size(), 1u);
}

TEST(SourcesLint, NamespaceMismatch) {
  std::vector<Diagnostic> d =
      lint({{"a.cpp", "TORCH_LIBRARY(ns, m) {\n  m.def(\"other::f(int x) -> int\");\n}"}});
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].rule, "namespace-mismatch");
  EXPECT_EQ(d[0].location.line, 2u);
  EXPECT_EQ(d[0].location.column, 10u);
  EXPECT_EQ(d[0].location.end_column, 15u);
  ASSERT_EQ(d[0].notes.size(), 1u);
  EXPECT_EQ(d[0].notes[0].location.line, 1u);
}

TEST(SourcesLint, ImplWithoutDefinitionIsAWarning) {
  std::vector<Diagnostic> d =
      lint({{"a.cpp",
             "TORCH_LIBRARY(ns, m) { m.def(\"f(int x) -> int\"); }\n"
             "TORCH_LIBRARY_IMPL(ns, CPU, m) { m.impl(\"f\", f); m.impl(\"g\", g); }\n"
             "TORCH_LIBRARY_IMPL(aten, CPU, m) { m.impl(\"add.Tensor\", add); }\n"}});
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].rule, "impl-without-definition");
  EXPECT_EQ(d[0].severity, diagnostics::Severity::warning);
  EXPECT_EQ(d[0].location.line, 2u);
}

TEST(SourcesLint, RuleCatalogNamesEveryRule) {
  std::vector<std::string> ids;
  for (const diagnostics::RuleInfo& rule : source_rule_catalog()) ids.emplace_back(rule.id);
  EXPECT_EQ(ids, (std::vector<std::string>{"duplicate-definition", "namespace-mismatch",
                                           "impl-without-definition", "custom-op-schema",
                                           "custom-op-not-static", "rejected-at-load",
                                           "macro-expansion-limit"}));
}

}  // namespace
}  // namespace schemac::sources::test

namespace schemac::sources {

// Scan options with the build's macros (-D, defines:).
inline ScanOptions with_macros(const tokens::MacroTable* macros) {
  ScanOptions options;
  options.macros = macros;
  return options;
}

namespace {

TEST(SourcesLint, NamespacesFromBuildMacrosAreComparedWithinAFile) {
  // aphrodite's csrc/torch_bindings.cpp and csrc/cpu/torch_bindings.cpp: alternative builds under
  // one -DTORCH_EXTENSION_NAME, each defining silu_and_mul.
  tokens::MacroTable build;
  build.define_from_text("TORCH_EXTENSION_NAME=_C");
  const char* text =
      "TORCH_LIBRARY_EXPAND(TORCH_EXTENSION_NAME, ops) { ops.def(\"f(Tensor x) -> ()\"); }\n";
  std::vector<ScannedFile> files{
      {"cuda.cpp", scan_source(text, Language::cpp, with_macros(&build))},
      {"cpu.cpp", scan_source(text, Language::cpp, with_macros(&build))}};
  EXPECT_TRUE(lint_sources(files).empty());
  std::string twice = std::string(text) + text;
  std::vector<ScannedFile> one{{"one.cpp", scan_source(twice, Language::cpp, with_macros(&build))}};
  std::vector<diagnostics::Diagnostic> d = lint_sources(one);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].rule, "duplicate-definition");
  EXPECT_EQ(d[0].message, "operator '_C::f' is defined twice");
}

}  // namespace
}  // namespace schemac::sources
