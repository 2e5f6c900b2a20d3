// read_cpp_scopes: the namespaces of C++ code and its namespace-scope functions (cpp_scopes.h).
#include <string>

#include <gtest/gtest.h>

#include "schemac/tokens/cpp_scopes.h"

namespace schemac::tokens {
namespace {

const CppFunction* find(const CppScopes& scopes, const std::string& name) {
  for (const CppFunction& f : scopes.functions) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

TEST(CppScopes, FunctionsWithTheirNamespacesAndLinkage) {
  CppScopes scopes = read_cpp_scopes(lex_cpp(
      "#include <torch/library.h>\n"
      "namespace proj {\n"
      "namespace gemm {\n"
      "at::Tensor prepack(const at::Tensor& w);\n"
      "std::tuple<at::Tensor, at::Tensor> split(const at::Tensor& x) { return {x, x}; }\n"
      "}  // namespace gemm\n"
      "namespace {\n"
      "at::Tensor hidden(const at::Tensor& x) { if (x.defined()) return x; return x; }\n"
      "}\n"
      "static const at::Tensor& kept(const at::Tensor& x) { return x; }\n"
      "}  // namespace proj\n"
      "namespace a::b { inline namespace v1 { void nested(); } }\n"
      "extern \"C\" { int plain_c(int); }\n"
      "void proj::gemm::out_of_line(int) {}\n"
      "struct Functor { at::Tensor operator()(const at::Tensor& x) { return x; } void member(); "
      "};\n"
      "static auto registry = c10::RegisterOperators().op(\"proj::f\", &proj::gemm::prepack);\n"
      "TORCH_LIBRARY(proj, m) { m.def(\"prepack(Tensor w) -> Tensor\"); }\n"
      "TORCH_LIBRARY_IMPL(proj, CPU, m) { m.impl(\"prepack\", &proj::gemm::prepack); }\n"));
  const CppFunction* prepack = find(scopes, "prepack");
  ASSERT_NE(prepack, nullptr);
  EXPECT_EQ(prepack->cpp_namespace, "proj::gemm");
  EXPECT_FALSE(prepack->defined);
  EXPECT_EQ(prepack->position.line, 4u);
  EXPECT_EQ(prepack->position.column, 12u);
  ASSERT_NE(find(scopes, "split"), nullptr);
  EXPECT_TRUE(find(scopes, "split")->defined);
  const CppFunction* hidden = find(scopes, "hidden");
  ASSERT_NE(hidden, nullptr);
  EXPECT_EQ(hidden->cpp_namespace, "proj");
  EXPECT_TRUE(hidden->anonymous);
  const CppFunction* kept = find(scopes, "kept");
  ASSERT_NE(kept, nullptr);
  EXPECT_TRUE(kept->is_static);
  EXPECT_FALSE(kept->anonymous);
  ASSERT_NE(find(scopes, "nested"), nullptr);
  EXPECT_EQ(find(scopes, "nested")->cpp_namespace, "a::b::v1");
  ASSERT_NE(find(scopes, "plain_c"), nullptr);
  EXPECT_EQ(find(scopes, "plain_c")->cpp_namespace, "");
  ASSERT_NE(find(scopes, "out_of_line"), nullptr);
  EXPECT_EQ(find(scopes, "out_of_line")->cpp_namespace, "proj::gemm");
  // Members, calls, blocks and registrations are no namespace-scope functions.
  for (const char* name : {"operator", "member", "defined", "RegisterOperators", "op",
                           "TORCH_LIBRARY", "TORCH_LIBRARY_IMPL", "def", "impl"}) {
    EXPECT_EQ(find(scopes, name), nullptr) << name;
  }
  EXPECT_EQ(scopes.namespace_at({5, 1}), "proj::gemm");
  EXPECT_EQ(scopes.namespace_at({8, 1}), "proj");
  EXPECT_EQ(scopes.namespace_at({18, 1}), "");
}

TEST(CppScopes, UnclosedBracesEndTheScan) {
  CppScopes scopes = read_cpp_scopes(lex_cpp("namespace x { void f(); void g( { namespace"));
  ASSERT_NE(find(scopes, "f"), nullptr);
  EXPECT_EQ(find(scopes, "f")->cpp_namespace, "x");
  EXPECT_TRUE(read_cpp_scopes(lex_cpp("")).functions.empty());
}

}  // namespace
}  // namespace schemac::tokens
