// c10's RegisterOperators API, every form: chains of .op(...), the constructor, options() chains
// with schema/kernel/catchAllKernel, the TensorTypeId keys of PyTorch 1.2-1.4, torch::jit's
// Operator lists, and what c10 refuses when the library loads. Forms are written for these tests
// in the shapes seen in torchvision's and torch_sparse's older csrc, an HPU backend and TensorRT-
// style plugins; what PyTorch 1.13 and 2.14 did with each was checked by loading such files.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "scan_test_support.h"
#include "schemac/sources/registration_lint.h"

namespace schemac::sources::test {
namespace {

using ::testing::ElementsAre;

std::vector<std::string> names(const std::vector<NamedOperator>& operators) {
  std::vector<std::string> out;
  for (const NamedOperator& op : operators) out.push_back(op.name);
  return out;
}

std::vector<std::string> kernels(const ScanResult& r) {
  std::vector<std::string> out;
  for (const NamedOperator& op : r.implementations)
    out.push_back(op.name + " " + op.dispatch_key + " " + op.kernel);
  return out;
}

TEST(RegisterOperators, AChainOfSchemasAndNames) {
  ScanResult r = scan_cpp(
      "static auto registry =\n"
      "    torch::RegisterOperators()\n"
      "        .op(\"vision::nms\", &nms)\n"
      "        .op(\"vision::roi_pool(Tensor input, Tensor rois, float scale) -> Tensor\",\n"
      "            &roi_pool_forward)\n"
      "        .op(\"vision::ps_roi\", &detail::ps_roi);\n");
  ASSERT_THAT(texts(r),
              ElementsAre("vision::roi_pool(Tensor input, Tensor rois, float scale) -> Tensor"));
  EXPECT_EQ(at(r.schemas[0].position), "4:13");
  EXPECT_EQ(r.schemas[0].call, "RegisterOperators");
  // Name-only forms: c10 infers their schemas from the kernels when the library loads.
  EXPECT_THAT(names(r.named_definitions), ElementsAre("vision::nms", "vision::ps_roi"));
  EXPECT_EQ(at(r.named_definitions[0].position), "3:13");
  ASSERT_EQ(r.skipped.size(), 2u);
  EXPECT_THAT(r.skipped[0].reason, ::testing::HasSubstr("c10 infers the schema"));
  // A kernel given without a key is a catch-all: PyTorch registers it as
  // CompositeImplicitAutograd.
  EXPECT_THAT(kernels(r), ElementsAre("vision::nms CompositeImplicitAutograd nms",
                                      "vision::roi_pool CompositeImplicitAutograd roi_pool_forward",
                                      "vision::ps_roi CompositeImplicitAutograd detail::ps_roi"));
  EXPECT_TRUE(r.problems.empty());
}

TEST(RegisterOperators, TheConstructorFormsAndJitOperators) {
  ScanResult r = scan_cpp(
      "static auto a = torch::RegisterOperators(\"plugin::add(Tensor x, Tensor y) -> Tensor\", "
      "&add);\n"
      "static auto b = c10::RegisterOperators(\"plugin::sub\", &sub);\n"
      "torch::jit::RegisterOperators reg({\n"
      "    Operator(\"plugin::mul(Tensor x, Tensor y) -> Tensor\", [](Stack& s) {}, "
      "aliasAnalysisFromSchema()),\n"
      "});\n");
  EXPECT_THAT(texts(r), ElementsAre("plugin::add(Tensor x, Tensor y) -> Tensor",
                                    "plugin::mul(Tensor x, Tensor y) -> Tensor"));
  EXPECT_THAT(names(r.named_definitions), ElementsAre("plugin::sub"));
}

TEST(RegisterOperators, OptionsChainsWithKeysAndCatchAll) {
  ScanResult r = scan_cpp(
      "static auto registry = torch::RegisterOperators()\n"
      "  .op(torch::RegisterOperators::options()\n"
      "      .schema(\"hpu::conv(Tensor input, Tensor weight) -> Tensor\")\n"
      "      .kernel<decltype(conv_hpu), &conv_hpu>(c10::DispatchKey::HPU))\n"
      "  .op(c10::RegisterOperators::options()\n"
      "      .schema(\"q::relu(Tensor x) -> Tensor\")\n"
      "      .kernel<QReluKernel>(QuantizedCPUTensorId()))\n"
      "  .op(\"q::add\", torch::RegisterOperators::options()\n"
      "      .kernel<decltype(at::add), &at::add>(c10::TensorTypeId::CPUTensorId))\n"
      "  .op(torch::RegisterOperators::options().schema(\"q::ident\")\n"
      "      .catchAllKernel<decltype(identity), &identity>()\n"
      "      .aliasAnalysis(AliasAnalysisKind::FROM_SCHEMA));\n");
  EXPECT_THAT(texts(r), ElementsAre("hpu::conv(Tensor input, Tensor weight) -> Tensor",
                                    "q::relu(Tensor x) -> Tensor"));
  EXPECT_THAT(names(r.named_definitions), ElementsAre("q::add", "q::ident"));
  // The functor's kernel has no function to name; the others do.
  EXPECT_THAT(kernels(r), ElementsAre("hpu::conv HPU conv_hpu", "q::add CPU at::add",
                                      "q::ident CompositeImplicitAutograd identity"));
  // Every key is checked like m.impl's.
  std::vector<std::string> keys;
  for (const KeyUse& key : r.keys) keys.push_back(key.name);
  EXPECT_THAT(keys, ElementsAre("HPU", "QuantizedCPU", "CPU"));
}

TEST(RegisterOperators, WhatC10RefusesAtLoadIsAnError) {
  ScanResult r = scan_cpp(
      "static auto r = torch::RegisterOperators()\n"
      "  .op(\"ops::twice\", &twice,\n"
      "      torch::RegisterOperators::options().schema(\"ops::twice(Tensor x) -> Tensor\"))\n"
      "  .op(\"bare(Tensor x) -> Tensor\", &bare);\n");
  ScannedFile file{"reg.cpp", r};
  std::vector<diagnostics::Diagnostic> found = lint_sources(std::span(&file, 1));
  std::vector<std::string> seen;
  for (const diagnostics::Diagnostic& d : found) {
    seen.push_back(d.rule + " " + std::to_string(d.location.line) + ":" +
                   std::to_string(d.location.column));
  }
  EXPECT_THAT(seen, ElementsAre("rejected-at-load 3:50", "rejected-at-load 4:7"));
  EXPECT_THAT(found[0].message, ::testing::HasSubstr("specified schema multiple times"));
  EXPECT_THAT(found[1].message, ::testing::HasSubstr("all symbols must have a namespace"));
}

TEST(RegisterOperators, NotAChain) {
  // The class's own declarations, a vector of registries, and a method named op elsewhere.
  ScanResult r = scan_cpp(
      "struct RegisterOperators { RegisterOperators(); };\n"
      "std::vector<torch::RegisterOperators> all;\n"
      "auto o = torch::RegisterOperators::options();\n"
      "graph.op(\"Add(Tensor a) -> Tensor\", x);\n");
  EXPECT_TRUE(r.schemas.empty());
  EXPECT_TRUE(r.named_definitions.empty());
  EXPECT_TRUE(r.problems.empty());
}

TEST(RegisterOperators, ClashesWithTorchLibraryDefinitions) {
  ScanResult a = scan_cpp(
      "static auto r = torch::RegisterOperators().op(\"ops::f(Tensor x) -> Tensor\", &f);\n");
  ScanResult b = scan_cpp("TORCH_LIBRARY(ops, m) { m.def(\"f(Tensor x) -> Tensor\"); }\n");
  std::vector<ScannedFile> files{{"a.cpp", a}, {"b.cpp", b}};
  std::vector<diagnostics::Diagnostic> found = lint_sources(files);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].rule, "duplicate-definition");
}

}  // namespace
}  // namespace schemac::sources::test
