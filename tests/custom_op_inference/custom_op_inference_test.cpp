// lib/frontend/custom_op_inference on its own: a Python file's names read once (imports, aliases, classes,
// functions), static defaults written as PyTorch writes them, mutates_args, and the schema
// torch.library.infer_schema would give a function (lib/frontend/sources' tests cover it again through the
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

// Module-level aliases: vLLM-style `_op = torch.library.custom_op` under a version check, with a
// fallback in the else branch (flash-attention's layout); names bound inside a def do not count.
TEST(PythonModule, AliasesInsideIfAndTryBlocksPreferTorch) {
  const tokens::TokenStream stream = tokens::lex_python(
      "import torch\nfrom torch.library import custom_op as co, Library as L\n"
      "import torch.library as tl\n"
      "if torch.__version__ >= '2.4':\n    _op = torch.library.custom_op\n"
      "else:\n    def noop(*a, **k):\n        inner = torch.library.define\n    _op = noop\n"
      "try:\n    _fake = tl.register_fake\nexcept ImportError:\n    _fake = None\n"
      "class C:\n    attr = torch.library.impl\n"
      "again = _op\nhelper = functools.partial(direct_register_custom_op, target_lib=lib)\n");
  const PythonModule module = read_python_module(stream);
  EXPECT_EQ(resolved_path(module, "_op"), "torch.library.custom_op");
  EXPECT_EQ(resolved_path(module, "again"), "torch.library.custom_op");
  EXPECT_EQ(resolved_path(module, "_fake"), "torch.library.register_fake");
  EXPECT_EQ(resolved_path(module, "co"), "torch.library.custom_op");
  EXPECT_EQ(resolved_path(module, "L"), "torch.library.Library");
  EXPECT_EQ(resolved_path(module, "tl.define"), "torch.library.define");
  EXPECT_EQ(resolved_path(module, "inner"), "inner");  // bound in a def body
  EXPECT_EQ(resolved_path(module, "attr"), "attr");    // a class attribute
  EXPECT_EQ(module.partials.count("helper"), 1u);
}

TEST(PythonModule, AliasCyclesEnd) {
  const tokens::TokenStream stream = tokens::lex_python("a = b\nb = a\nc = c\n");
  const PythonModule module = read_python_module(stream);
  EXPECT_EQ(resolved_path(module, "c"), "c");
  resolved_path(module, "a");  // terminates
}

// The string `name = ...` gives, or why not.
std::string string_of(std::string_view code, std::string_view name = "x") {
  const tokens::TokenStream stream = tokens::lex_python(code);
  const PythonModule module = read_python_module(stream);
  std::string why;
  std::optional<tokens::JoinedLiteral> s = static_string(module, value_of(stream, name), &why);
  return s ? s->text.text() : "<" + why + ">";
}

TEST(StaticString, FStringsAndPlusOverModuleConstants) {
  // causal-conv1d's form: LIBRARY_NAME = "DaoAILab"; f"{LIBRARY_NAME}::_causal_conv1d_fwd_cpp".
  EXPECT_EQ(string_of("LIB = \"DaoAILab\"\nx = f\"{LIB}::fwd\"\n"), "DaoAILab::fwd");
  EXPECT_EQ(string_of("NS = 'a'\nSEP = '::'\nx = NS + SEP + \"op\"\n"), "a::op");
  EXPECT_EQ(string_of("NS = 'a'\nFULL = f'{NS}::b'\nx = (FULL + '.out')\n"), "a::b.out");
  EXPECT_EQ(string_of("x = f'{{a}}::{{b}}'\n"), "{a}::{b}");          // doubled braces
  EXPECT_EQ(string_of("NS = 'n'\nx = f'{{{NS}}}'\n"), "{n}");
  EXPECT_EQ(string_of("x = 'plain' 'joined'\n"), "plainjoined");
}

TEST(StaticString, WhatNeedsTheFileToRunIsSaid) {
  EXPECT_EQ(string_of("x = f'{name}::op'\n"),
            "<'name' is not a module-level string constant of this file>");
  EXPECT_EQ(string_of("NS = 'a'\nx = f'{NS!r}::op'\n"),
            "<an f-string whose field '{NS!r}' is not a constant's name>");
  EXPECT_EQ(string_of("x = prefix() + '::op'\n"),
            "<not a string literal or a module-level constant>");
  EXPECT_EQ(string_of("N = 3\nx = f'{N}'\n"),
            "<'N' is not a module-level string constant of this file>");
}

TEST(StaticString, ConstantBytesMapToWhereTheNameIsWritten) {
  const tokens::TokenStream stream = tokens::lex_python("LIB = 'abc'\nx = f'{LIB}::op'\n");
  const PythonModule module = read_python_module(stream);
  std::string why;
  std::optional<tokens::JoinedLiteral> s = static_string(module, value_of(stream, "x"), &why);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->text.position(0), (tokens::SourcePosition{2, 7}));  // the '{'
  EXPECT_EQ(s->text.position(3), (tokens::SourcePosition{2, 12}));  // the first ':'
}

}  // namespace
}  // namespace schemac::custom_op_inference
