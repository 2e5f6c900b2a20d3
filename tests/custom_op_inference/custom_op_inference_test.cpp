// lib/custom_op_inference on its own: a Python file's names read once (imports, aliases, classes,
// functions), static defaults written as PyTorch writes them, mutates_args, and the schema
// torch.library.infer_schema would give a function (lib/sources' tests cover it again through the
// custom_op call finder).
#include <string>

#include <gtest/gtest.h>

#include "schemac/custom_op_inference/infer_schema.h"
#include "schemac/custom_op_inference/python_module.h"
#include "schemac/custom_op_inference/python_values.h"
#include "schemac/tokens/token.h"

namespace schemac::custom_op_inference {
namespace {

// The tokens after `=` up to the end of the first line that starts with `name =`.
tokens::TokenRange value_of(const tokens::TokenStream& stream, std::string_view name) {
  for (size_t i = 0; i + 1 < stream.tokens.size(); ++i) {
    if (stream.tokens[i].text == name && stream.tokens[i + 1].text == "=")
      return {i + 2, logical_line_end(stream.tokens, i)};
  }
  ADD_FAILURE() << "no assignment to " << name;
  return {};
}

TEST(PythonModule, ReadsImportsAliasesClassesAndFunctions) {
  const tokens::TokenStream stream = tokens::lex_python(
      "import typing as t\nfrom torch import Tensor\nfrom .types import Shape\n"
      "Pair = tuple[Tensor, Tensor]\nclass Config:\n    pass\n"
      "def f(x: Tensor) -> Tensor:\n    return x\ndef f(x):\n    pass\n");
  const PythonModule module = read_python_module(stream);
  EXPECT_EQ(module.imports.at("t"), "typing");
  EXPECT_EQ(module.imports.at("Tensor"), "torch.Tensor");
  EXPECT_EQ(module.imports.at("Shape"), ".types.Shape");
  EXPECT_EQ(module.assignments.count("Pair"), 1u);
  EXPECT_EQ(module.classes.count("Config"), 1u);
  EXPECT_EQ(module.functions.count("f"), 2u);
}

TEST(PythonValues, DefaultsAreWrittenAsPyTorchWritesThem) {
  const tokens::TokenStream stream = tokens::lex_python(
      "A = 1e-5\nB = torch.float16\nC = 'cuda:0'\nD = None\nE = True\nF = -3\nG = some_call()\n");
  const PythonModule module = read_python_module(stream);
  auto text = [&](std::string_view name) { return default_value(module, value_of(stream, name)); };
  EXPECT_EQ(text("A").text, "1e-05");
  EXPECT_EQ(text("B").text, "float16");
  EXPECT_EQ(text("C").text, "\"cuda:0\"");
  EXPECT_EQ(text("D").text, "None");
  EXPECT_EQ(text("E").text, "True");
  EXPECT_EQ(text("F").text, "-3");
  EXPECT_NE(text("G").status, StaticValue::Status::ok);
  EXPECT_EQ(python_float_text(0.5), "0.5");
  EXPECT_EQ(python_float_text(1e16), "1e+16");
}

TEST(PythonValues, MutatesArgsInEveryWrittenForm) {
  const tokens::TokenStream stream = tokens::lex_python(
      "A = ('x', 'y')\nB = 'unknown'\nC = set()\nD = 'other'\nE = names\n");
  const PythonModule module = read_python_module(stream);
  const MutatesArgs a = read_mutates_args(module, value_of(stream, "A"));
  EXPECT_EQ(a.status, MutatesArgs::Status::names);
  EXPECT_EQ(a.names, (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(read_mutates_args(module, value_of(stream, "B")).status, MutatesArgs::Status::all);
  const MutatesArgs c = read_mutates_args(module, value_of(stream, "C"));
  EXPECT_EQ(c.status, MutatesArgs::Status::names);
  EXPECT_TRUE(c.names.empty());
  EXPECT_EQ(read_mutates_args(module, value_of(stream, "D")).status, MutatesArgs::Status::invalid);
  EXPECT_EQ(read_mutates_args(module, value_of(stream, "E")).status, MutatesArgs::Status::unknown);
}

TEST(InferSignature, HintsDefaultsKeywordOnlyAndMutatedTensors) {
  const tokens::TokenStream stream = tokens::lex_python(
      "from typing import Optional\nimport torch\nfrom torch import Tensor\n"
      "def scale(x: Tensor, out: Tensor, *, factor: float = 2.0, bias: Optional[Tensor] = None)"
      " -> None:\n    pass\n");
  const PythonModule module = read_python_module(stream);
  MutatesArgs mutates;
  mutates.names = {"out"};
  mutates.positions = {{1, 1}};
  const InferredSignature inferred = infer_signature(module, module.functions.find("scale")->second,
                                                     mutates, {1, 1}, "myops::scale");
  ASSERT_TRUE(inferred.signature.has_value());
  EXPECT_TRUE(inferred.problems.empty());
  EXPECT_EQ(inferred.signature->text(),
            "(Tensor x, Tensor(a1!) out, *, float factor=2.0, Tensor? bias=None) -> ()");
}

TEST(InferSignature, AHintPyTorchCannotTakeIsAnError) {
  const tokens::TokenStream stream = tokens::lex_python(
      "import torch\ndef f(x: torch.Tensor, d: dict) -> torch.Tensor:\n    pass\n");
  const PythonModule module = read_python_module(stream);
  const InferredSignature inferred =
      infer_signature(module, module.functions.find("f")->second, {}, {1, 1}, "myops::f");
  EXPECT_FALSE(inferred.signature.has_value());
  ASSERT_FALSE(inferred.problems.empty());
}

}  // namespace
}  // namespace schemac::custom_op_inference
