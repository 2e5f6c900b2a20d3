// The C++ scanner on each literal form and each call form. Forms are written for these tests; a
// comment names the project where each was seen.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "scan_test_support.h"

namespace schemac::sources::test {

// Scan options with the build's macros (-D, defines:).
inline ScanOptions with_macros(const tokens::MacroTable* macros) {
  ScanOptions options;
  options.macros = macros;
  return options;
}

namespace {

using ::testing::ElementsAre;

TEST(CppScanner, FindsDefInTorchLibraryBlockWithNamespace) {
  ScanResult r = scan_cpp("TORCH_LIBRARY(myops, m) {\n  m.def(\"relu(Tensor x) -> Tensor\");\n}\n");
  ASSERT_EQ(r.schemas.size(), 1u);
  EXPECT_EQ(r.schemas[0].text.text(), "relu(Tensor x) -> Tensor");
  EXPECT_EQ(r.schemas[0].library_namespace, "myops");
  EXPECT_EQ(at(r.schemas[0].position), "2:9");
  EXPECT_EQ(at(r.schemas[0].library_position), "1:1");
}

TEST(CppScanner, AnyReceiverNameAndArrow) {
  // `ops.def` seen in vllm csrc/torch_bindings.cpp; `lib->def` in PyTorch's tests.
  ScanResult r = scan_cpp(
      "TORCH_LIBRARY_FRAGMENT(a, ops) { ops.def(\"f(Tensor x) -> Tensor\"); }\n"
      "void reg(torch::Library* lib) { lib->def(\"g(Tensor x) -> Tensor\"); }\n");
  EXPECT_THAT(texts(r), ElementsAre("f(Tensor x) -> Tensor", "g(Tensor x) -> Tensor"));
  EXPECT_EQ(r.schemas[0].library_namespace, "a");
  EXPECT_EQ(r.schemas[1].library_namespace, "");  // outside any block
}

TEST(CppScanner, StableTorchLibraryBlocks) {
  // Seen in xformers (STABLE_TORCH_LIBRARY_FRAGMENT) and PyTorch's stable ABI tests.
  ScanResult r = scan_cpp(
      "STABLE_TORCH_LIBRARY(s, m) { m.def(\"a(Tensor x) -> Tensor\"); }\n"
      "STABLE_TORCH_LIBRARY_FRAGMENT(t, m) { m.def(\"b(Tensor x) -> Tensor\"); }\n"
      "STABLE_TORCH_LIBRARY_IMPL(t, CPU, m) { m.impl(\"b\", &b_cpu); }\n");
  ASSERT_EQ(r.schemas.size(), 2u);
  EXPECT_EQ(r.schemas[0].library_namespace, "s");
  EXPECT_EQ(r.schemas[1].library_namespace, "t");
  ASSERT_EQ(r.implementations.size(), 1u);
  EXPECT_EQ(r.implementations[0].name, "b");
  EXPECT_EQ(r.implementations[0].library_namespace, "t");
}

TEST(CppScanner, AdjacentLiteralsWithCommentsBetweenJoin) {
  // Seen in vllm csrc/torch_bindings.cpp: one schema split over many literals.
  ScanResult r = scan_cpp(
      "TORCH_LIBRARY(v, ops) {\n"
      "  ops.def(\n"
      "      \"paged(Tensor! out, \"  // out is written\n"
      "      /* block */ \"Tensor q) -> ()\");\n"
      "}\n");
  ASSERT_EQ(r.schemas.size(), 1u);
  const FoundSchema& s = r.schemas[0];
  EXPECT_EQ(s.text.text(), "paged(Tensor! out, Tensor q) -> ()");
  EXPECT_EQ(at(s.position), "3:7");
  // Each byte maps back: 'q' is on line 4, inside the second literal.
  size_t q = s.text.text().find("q)");
  EXPECT_EQ(at(s.text.position(q)), "4:27");
}

TEST(CppScanner, EscapesAndPrefixesMapToTheirSource) {
  ScanResult r = scan_cpp("void f(Library& m) { m.def(u8\"e\\x78p(Tensor\\tx) -> Tensor\"); }");
  ASSERT_EQ(r.schemas.size(), 1u);
  EXPECT_EQ(r.schemas[0].text.text(), "exp(Tensor\tx) -> Tensor");
  EXPECT_EQ(at(r.schemas[0].position), "1:28");
  EXPECT_EQ(at(r.schemas[0].text.position(1)), "1:32");   // 'x' from \x78
  EXPECT_EQ(at(r.schemas[0].text.position(11)), "1:46");  // 'x' after \t
  for (const char* prefix : {"L", "u", "U"}) {
    ScanResult p =
        scan_cpp(std::string("void f(Library& m) { m.def(") + prefix + "\"a(int x) -> int\"); }");
    EXPECT_THAT(texts(p), ElementsAre("a(int x) -> int")) << prefix;
  }
}

TEST(CppScanner, RawStringsKeepTheirBytes) {
  // Raw strings with a delimiter and a line break inside (PyTorch's own registration tests).
  ScanResult r = scan_cpp(
      "TORCH_LIBRARY(ns, m) {\n  m.def(R\"DOC(raw(Tensor x,\n   int \\n) -> Tensor)DOC\");\n}\n");
  ASSERT_EQ(r.schemas.size(), 1u);
  EXPECT_EQ(r.schemas[0].text.text(), "raw(Tensor x,\n   int \\n) -> Tensor");
  EXPECT_EQ(at(r.schemas[0].position), "2:9");
  EXPECT_EQ(at(r.schemas[0].text.position(0)), "2:15");
  EXPECT_EQ(at(r.schemas[0].text.position(14)), "3:1");
}

TEST(CppScanner, LineContinuationsInsideAndOutsideLiterals) {
  ScanResult r =
      scan_cpp("TORCH_LIBRARY(ns, m) {\n  m.d\\\nef(\"sp\\\nlit(Tensor x) -> Tensor\");\n}\n");
  ASSERT_EQ(r.schemas.size(), 1u);
  EXPECT_EQ(r.schemas[0].text.text(), "split(Tensor x) -> Tensor");
  EXPECT_EQ(at(r.schemas[0].text.position(2)), "4:1");
}

TEST(CppScanner, WrappersAreUnwrapped) {
  // TORCH_SELECTIVE_SCHEMA: torchvision csrc/ops; torch::schema with an alias kind: library.h.
  ScanResult r = scan_cpp(
      "TORCH_LIBRARY_FRAGMENT(torchvision, m) {\n"
      "  m.def(TORCH_SELECTIVE_SCHEMA(\"torchvision::nms(Tensor d, float t) -> Tensor\"));\n"
      "  m.def(torch::schema(\"p(Tensor x) -> Tensor\", c10::AliasAnalysisKind::PURE_FUNCTION));\n"
      "  m.def(\"with_fn(Tensor x) -> Tensor\", TORCH_FN(with_fn));\n"
      "}\n");
  EXPECT_THAT(texts(r), ElementsAre("torchvision::nms(Tensor d, float t) -> Tensor",
                                    "p(Tensor x) -> Tensor", "with_fn(Tensor x) -> Tensor"));
}

TEST(CppScanner, CommentsStringsAndCharactersHideCalls) {
  ScanResult r = scan_cpp(
      "TORCH_LIBRARY(ns, m) {\n"
      "  // m.def(\"a(Tensor x) -> Tensor\");\n"
      "  /* m.def(\"b(Tensor x) -> Tensor\"); */\n"
      "  auto s = \"m.def(\\\"c(Tensor x) -> Tensor\\\")\";\n"
      "  char q = '\"'; int n = 1'000;\n"
      "  m.def(\"d(Tensor x) -> Tensor\");\n"
      "}\n");
  EXPECT_THAT(texts(r), ElementsAre("d(Tensor x) -> Tensor"));
  EXPECT_EQ(r.schemas[0].position.line, 6u);
}

TEST(CppScanner, NonLiteralsAreSkippedAndListed) {
  // A macro argument and a stringified macro (seen in FBGEMM kv_cache_defs.cpp: STRING(...)).
  ScanResult r = scan_cpp(
      "TORCH_LIBRARY(ns, m) {\n"
      "  m.def(SCHEMA);\n"
      "  m.def(\"a(int x=\" STRING(DEFAULT) \") -> int\");\n"
      "  m.def(\"inferred\", &inferred);\n"
      "}\n");
  EXPECT_TRUE(r.schemas.empty());
  ASSERT_EQ(r.skipped.size(), 3u);
  EXPECT_EQ(at(r.skipped[0].position), "2:9");
  ASSERT_EQ(r.named_definitions.size(), 1u);
  EXPECT_EQ(r.named_definitions[0].name, "inferred");
}

TEST(CppScanner, PybindAndCustomClassesAreNotOperators) {
  ScanResult r = scan_cpp(
      "PYBIND11_MODULE(ext, m) { m.def(\"forward\", &forward, \"forward(x) -> y\"); }\n"
      "TORCH_LIBRARY(ns, m) {\n"
      "  m.class_<Foo>(\"Foo\").def(torch::init<>()).def(\"get\", &Foo::get);\n"
      "}\n");
  EXPECT_TRUE(r.schemas.empty());
  EXPECT_TRUE(r.named_definitions.empty());
  EXPECT_TRUE(r.skipped.empty());
}

TEST(CppScanner, MacroNamespacesAreUnknownUnlessDefined) {
  // TORCH_LIBRARY_EXPAND(TORCH_EXTENSION_NAME, ops): vllm; the name comes from the build.
  // TORCH_LIBRARY stringifies its namespace as written: a macro there is not expanded.
  const char* text =
      "TORCH_LIBRARY_EXPAND(TORCH_EXTENSION_NAME, ops) { ops.def(\"a(int x) -> int\"); }\n"
      "#define MY_NS local_ns\n"
      "TORCH_LIBRARY(MY_NS, m) { m.def(\"b(int x) -> int\"); }\n"
      "TORCH_LIBRARY_FRAGMENT(MY_NS, m) { m.def(\"c(int x) -> int\"); }\n"
      "TORCH_LIBRARY_EXPAND(CONCAT(TORCH_EXTENSION_NAME, _cache_ops), c) {\n"
      "  c.def(\"d(int x) -> int\"); }\n"
      "TORCH_LIBRARY_IMPL_EXPAND(TORCH_EXTENSION_NAME, KEY, m) { m.impl(\"a\", &a_k); }\n";
  ScanResult r = scan_cpp(text);
  ASSERT_EQ(r.schemas.size(), 4u);
  EXPECT_EQ(r.schemas[0].library_namespace, "");
  EXPECT_EQ(r.schemas[1].library_namespace, "MY_NS");
  EXPECT_EQ(r.schemas[2].library_namespace, "local_ns");
  EXPECT_EQ(r.schemas[3].library_namespace, "");
  tokens::MacroTable build;
  build.define_from_text("TORCH_EXTENSION_NAME=_C");
  build.define_from_text("KEY=CPU");
  ScanResult d = scan_source(text, Language::cpp, with_macros(&build));
  EXPECT_EQ(d.schemas[0].library_namespace, "_C");
  EXPECT_EQ(d.schemas[3].library_namespace, "_C_cache_ops");
  ASSERT_EQ(d.implementations.size(), 1u);
  EXPECT_EQ(d.implementations[0].library_namespace, "_C");
  EXPECT_EQ(d.implementations[0].dispatch_key, "CPU");
  ASSERT_EQ(d.keys.size(), 1u);
  EXPECT_EQ(d.keys[0].written, "");  // KEY is written there, not CPU: no fix-it may name it
}

TEST(CppScanner, BuildMacrosDecideBranches) {
  // vllm: #ifndef USE_ROCM around the CUDA-only ops; FastDM-style arch checks.
  const char* text =
      "TORCH_LIBRARY(ns, m) {\n#ifndef USE_ROCM\n  m.def(\"cuda_only(int x) -> int\");\n"
      "#else\n  m.def(\"rocm_only(int x) -> int\");\n#endif\n"
      "#if defined ARCH && ARCH >= 900\n  m.def(\"hopper(int x) -> int\");\n#endif\n}\n";
  EXPECT_EQ(texts(scan_cpp(text)).size(), 3u);
  tokens::MacroTable rocm;
  rocm.define_from_text("USE_ROCM");
  rocm.define_from_text("ARCH=800");
  EXPECT_THAT(texts(scan_source(text, Language::cpp, with_macros(&rocm))),
              ElementsAre("rocm_only(int x) -> int"));
  tokens::MacroTable cuda;
  cuda.undefine("USE_ROCM");
  cuda.define_from_text("ARCH=900");
  EXPECT_THAT(texts(scan_source(text, Language::cpp, with_macros(&cuda))),
              ElementsAre("cuda_only(int x) -> int", "hopper(int x) -> int"));
}

TEST(CppScanner, ImplKeysAndCustomClasses) {
  // vllm: ops.impl("op", torch::kCUDA, &op); gsplat: m.class_<T>("Name") in the block.
  ScanResult r = scan_cpp(
      "TORCH_LIBRARY(ns, ops) {\n"
      "  ops.impl(\"a\", torch::kCUDA, &a_cuda);\n"
      "  ops.impl(\"b\", c10::DispatchKey::Meta, &b_meta);\n"
      "  ops.impl(\"c\", torch::kCUDAA, &c_cuda);\n"
      "  ops.class_<Params>(\"Params\").def(torch::init<>());\n"
      "}\n"
      "static auto reg = torch::class_<Other>(\"other_ns\", \"Other\");\n");
  ASSERT_EQ(r.implementations.size(), 3u);
  EXPECT_EQ(r.implementations[0].dispatch_key, "CUDA");
  EXPECT_EQ(r.implementations[0].kernel, "a_cuda");
  EXPECT_EQ(r.implementations[1].dispatch_key, "Meta");
  ASSERT_EQ(r.keys.size(), 3u);
  EXPECT_EQ(r.keys[2].name, "CUDAA");
  EXPECT_EQ(r.keys[2].written, "kCUDAA");
  EXPECT_EQ(at(r.keys[2].position), "4:24");
  ASSERT_EQ(r.classes.size(), 2u);
  EXPECT_EQ(r.classes[0].name, "Params");
  EXPECT_EQ(r.classes[0].library_namespace, "ns");
  EXPECT_EQ(r.classes[1].name, "Other");
  EXPECT_EQ(r.classes[1].library_namespace, "other_ns");
}

TEST(CppScanner, PreprocessorBranchesAreRecorded) {
  ScanResult r = scan_cpp(
      "TORCH_LIBRARY(ns, m) {\n#ifdef A\n  m.def(\"a(int x) -> int\");\n#else\n"
      "  m.def(\"a(int x) -> int\");\n#endif\n  m.def(\"b(int x) -> int\");\n}\n");
  ASSERT_EQ(r.schemas.size(), 3u);
  EXPECT_TRUE(tokens::mutually_exclusive(r.schemas[0].condition, r.schemas[1].condition));
  EXPECT_FALSE(tokens::mutually_exclusive(r.schemas[0].condition, r.schemas[2].condition));
}

TEST(CppScanner, ADefineInsideABlockKeepsTheBlockWhole) {
  ScanResult r = scan_cpp(
      "TORCH_LIBRARY(a, m) {\n#define HELPER(x) (x\n  m.def(\"f(int x) -> int\");\n}\n"
      "void g(Library& m) { m.def(\"h(int x) -> int\"); }\n");
  ASSERT_EQ(r.schemas.size(), 2u);
  EXPECT_EQ(r.schemas[0].library_namespace, "a");
  EXPECT_EQ(r.schemas[1].library_namespace, "");
}

TEST(CppScanner, CallsInsideMacroBodiesAreFound) {
  ScanResult r = scan_cpp("#define REGISTER(m) \\\n  m.def(\"in_macro(Tensor x) -> Tensor\")\n");
  EXPECT_THAT(texts(r), ElementsAre("in_macro(Tensor x) -> Tensor"));
  EXPECT_EQ(at(r.schemas[0].position), "2:9");
}

TEST(CppScanner, BrokenInputNeverCrashes) {
  for (const char* text : {"m.def(", "m.def(\"unterminated", "m.def(R\"x(never closed",
                           "TORCH_LIBRARY(ns, m) {", "/* open", "\"\\", "m.def(R\"(a)\")",
                           "TORCH_LIBRARY(", "#define", "m.def(\"\\u12\")", "'"}) {
    ScanResult r = scan_cpp(text);
    for (const FoundSchema& s : r.schemas) EXPECT_FALSE(s.text.empty());
  }
}

}  // namespace
}  // namespace schemac::sources::test
