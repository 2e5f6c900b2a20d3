// Registration calls read through the file's own macros (and -D ones), as the compiler reads
// them: a schema passed through a function-like macro is found and located inside its literal, a
// macro whose body registers is found at each use with that use's arguments (its parameters are
// never taken for keys or namespaces), and a macro that grows without end stops, located, in well
// under a second. The macro shapes are written for these tests after those seen in PyTorch/XLA-
// style op tables, X-macro operator lists and vLLM-layout bindings.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "scan_test_support.h"
#include "schemac/sources/registration_lint.h"

namespace schemac::sources::test {
namespace {

using ::testing::ElementsAre;

ScanResult scan_with(std::string_view text, std::initializer_list<std::string_view> defines) {
  tokens::MacroTable table;
  for (std::string_view spec : defines) EXPECT_EQ(table.define_from_text(spec), "") << spec;
  ScanOptions options;
  options.macros = &table;
  return scan_source(text, Language::cpp, options);
}

std::vector<std::string> rules_of(const std::string& path, const ScanResult& scan) {
  ScannedFile file{path, scan};
  std::vector<std::string> out;
  for (const diagnostics::Diagnostic& d : lint_sources(std::span(&file, 1))) {
    out.push_back(d.rule + " " + std::to_string(d.location.line) + ":" +
                  std::to_string(d.location.column));
  }
  return out;
}

TEST(CppMacroCalls, ASchemaPassedThroughAMacroIsLocatedInItsLiteral) {
  ScanResult r = scan_cpp(
      "#define NO_OUTPUTS(sig) \\\n"
      "  torch::schema(sig, c10::AliasAnalysisKind::CONSERVATIVE), BOXED(f)\n"
      "TORCH_LIBRARY(pipe, m) {\n"
      "  m.def(NO_OUTPUTS(\"begin_stage(int stage) -> ()\"));\n"
      "}\n");
  ASSERT_THAT(texts(r), ElementsAre("begin_stage(int stage) -> ()"));
  const FoundSchema& s = r.schemas[0];
  EXPECT_EQ(s.library_namespace, "pipe");
  EXPECT_EQ(at(s.position), "4:20");
  EXPECT_EQ(at(s.text.position(s.text.text().find("int"))), "4:33");
}

TEST(CppMacroCalls, ALiteralInADefineBodyIsLocatedThere) {
  ScanResult r = scan_cpp(
      "#define ADD_SCHEMA \"add2(Tensor a, Tensorr b) -> Tensor\"\n"
      "TORCH_LIBRARY(m2, m) { m.def(ADD_SCHEMA); }\n");
  ASSERT_THAT(texts(r), ElementsAre("add2(Tensor a, Tensorr b) -> Tensor"));
  EXPECT_EQ(at(r.schemas[0].position), "1:20");
  EXPECT_THAT(rules_of("a.cpp", r), ElementsAre("unknown-type 1:36"));
}

TEST(CppMacroCalls, ACommandLineMacroIsLocatedAtItsUse) {
  ScanResult r =
      scan_with("TORCH_LIBRARY(m3, m) {\n  m.def(SIG);\n}\n", {"SIG=\"f(Tensor x) -> Tensor\""});
  ASSERT_THAT(texts(r), ElementsAre("f(Tensor x) -> Tensor"));
  EXPECT_EQ(at(r.schemas[0].position), "2:9");
}

TEST(CppMacroCalls, StringifiedNamesAndXMacroLists) {
  // An X-macro list of operators, each defined by a macro #undef'd after use.
  ScanResult r = scan_cpp(
      "#define UNARY_OPS(X) X(sin) X(cos)\n"
      "#define DEFINE(name) m.def(#name \"(Tensor x) -> Tensor\");\n"
      "TORCH_LIBRARY(unary, m) {\n"
      "  UNARY_OPS(DEFINE)\n"
      "}\n"
      "#undef DEFINE\n"
      "#define DEFINE(name) int name;\n");
  EXPECT_THAT(texts(r), ElementsAre("sin(Tensor x) -> Tensor", "cos(Tensor x) -> Tensor"));
  EXPECT_EQ(r.schemas[0].library_namespace, "unary");
  // The stringified name is at the use; the literal's bytes where the literal is.
  EXPECT_EQ(at(r.schemas[0].text.position(0)), "4:3");
  EXPECT_EQ(at(r.schemas[0].text.position(3)), "2:35");
  EXPECT_TRUE(rules_of("x.cpp", r).empty());
}

TEST(CppMacroCalls, AMacroBodysParametersAreNotKeys) {
  ScanResult r = scan_cpp(
      "#define REGISTER_KERNELS(key) \\\n"
      "  TORCH_LIBRARY_IMPL(ops, key, m) { m.impl(\"f\", &f_##key); }\n"
      "#define NEVER_USED(key, ns) TORCH_LIBRARY_IMPL(ns, key, m) { m.impl(\"g\", &g); }\n"
      "TORCH_LIBRARY(ops, m) { m.def(\"f(Tensor x) -> Tensor\"); }\n"
      "REGISTER_KERNELS(CPU)\n"
      "REGISTER_KERNELS(CUDAA)\n");
  std::vector<std::string> impls;
  for (const NamedOperator& impl : r.implementations)
    impls.push_back(impl.name + " " + impl.dispatch_key + " " + impl.kernel);
  // Each use is a registration with its own key; the unused macro's body (line 3, read where it
  // is written) names none.
  EXPECT_THAT(impls, ElementsAre("g  g", "f CPU f_CPU", "f CUDAA f_CUDAA"));
  // Only the key a use passes is checked, where the use writes it.
  EXPECT_THAT(rules_of("k.cpp", r),
              ElementsAre("impl-without-definition 3:69", "unknown-dispatch-key 6:18"));
}

TEST(CppMacroCalls, RegisterOperatorsThroughAMacro) {
  ScanResult r = scan_cpp(
      "#define REGISTER(name, fn) static auto reg_##fn = torch::RegisterOperators().op(name, "
      "&fn);\n"
      "REGISTER(\"tv::nms(Tensor dets, Tensor scores, float thr) -> Tensor\", nms)\n");
  ASSERT_THAT(texts(r), ElementsAre("tv::nms(Tensor dets, Tensor scores, float thr) -> Tensor"));
  EXPECT_EQ(at(r.schemas[0].position), "2:10");
}

// A macro that doubles forty times: 2^40 tokens if expanded (unbounded, a minute and gigabytes).
// Reading it stops at the bound, with an error at the use; how fast is BM_lint_macro_bomb_cpp's
// figure (bench/lint), and the test's own TIMEOUT (tests/sources/CMakeLists.txt) fails a hang.
TEST(CppMacroCalls, AMacroBombStopsLocated) {
  std::string text = "#define A0 x\n";
  for (int i = 1; i <= 40; ++i)
    text += "#define A" + std::to_string(i) + " A" + std::to_string(i - 1) + " A" +
            std::to_string(i - 1) + "\n";
  text += "#define NS A40\nTORCH_LIBRARY_EXPAND(NS, m) {\n  m.def(\"f(Tensor x) -> Tensor\");\n}\n";
  ScanResult r = scan_cpp(text);
  EXPECT_THAT(rules_of("bomb.cpp", r), ElementsAre("macro-expansion-limit 43:1"));
  EXPECT_THAT(r.problems[0].message, ::testing::HasSubstr("'TORCH_LIBRARY_EXPAND'"));
  // What is written literally is still found.
  EXPECT_THAT(texts(r), ElementsAre("f(Tensor x) -> Tensor"));
}

TEST(CppMacroCalls, CommandLineBombsStopToo) {
  // -D 'NS=B(B(B(...(y)...)))' -D 'B(x)=x x': nested 60 deep, each level doubling.
  std::string ns = "NS=";
  for (int i = 0; i < 60; ++i) ns += "B(";
  ns += "y";
  for (int i = 0; i < 60; ++i) ns += ")";
  ScanResult r = scan_with("TORCH_LIBRARY_EXPAND(NS, m) {}\n", {ns, "B(x)=x x"});
  EXPECT_THAT(rules_of("d.cpp", r), ElementsAre("macro-expansion-limit 1:1"));
  // And nesting deeper than compilers allow, in an #if.
  std::string deep = "DEEP=";
  for (int i = 0; i < 300; ++i) deep += "I(";
  deep += "1";
  for (int i = 0; i < 300; ++i) deep += ")";
  ScanResult d = scan_with("#if DEEP\nTORCH_LIBRARY(q, m) {}\n#endif\n", {deep, "I(x)=x"});
  EXPECT_THAT(rules_of("e.cpp", d), ElementsAre("macro-expansion-limit 1:4"));
  EXPECT_THAT(d.problems[0].message, ::testing::HasSubstr("nested deeper than"));
}

}  // namespace
}  // namespace schemac::sources::test
