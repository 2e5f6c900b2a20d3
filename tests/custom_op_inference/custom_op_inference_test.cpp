// lib/frontend/custom_op_inference on its own: a Python file's names read once (imports, aliases, classes,
// functions), static defaults written as PyTorch writes them, mutates_args, and the schema
// torch.library.infer_schema would give a function (lib/frontend/sources' tests cover it again through the
// custom_op call finder).
#include <string>
#include <vector>

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

// The schema of def `fn` in `code` mutating `mutated`, with custom_op's tags `tags` (an
// expression of the file, read as read_custom_op_tags reads it) under `release`; the problems'
// messages after "|".
std::string tagged(const std::string& code, const std::string& fn, std::vector<std::string> mutated,
                   const std::string& tags, torch_releases::TorchVersion release) {
  const tokens::TokenStream stream = tokens::lex_python(code + "\nTAGS = " + tags + "\n");
  const PythonModule module = read_python_module(stream);
  MutatesArgs mutates;
  mutates.names = std::move(mutated);
  mutates.positions.assign(mutates.names.size(), {1, 1});
  InferenceContext context;
  context.release = release;
  context.tags = read_custom_op_tags(module, value_of(stream, "TAGS"));
  context.custom_op_def = true;
  const InferredSignature inferred =
      infer_signature(module, module.functions.find(fn)->second, mutates, {1, 1}, "ops::" + fn, context);
  std::string out = inferred.signature ? inferred.signature->text() : "";
  for (const InferenceProblem& problem : inferred.problems) out += "|" + problem.message;
  return out;
}

constexpr torch_releases::TorchVersion k2_12{2, 12}, k2_13{2, 13}, k2_14{2, 14};

// From 2.13 custom_op's tags shape the schema (torch 2.14's infer_schema, run in the sid stage);
// 2.12 and older leave the return alone.
TEST(InferSignature, TagInplaceReturnsTheFirstArgumentFrom2_13) {
  const std::string code = "import torch\nfrom torch import Tag, Tensor\n"
                           "def scale_(x: Tensor, factor: float) -> Tensor:\n    return x\n";
  EXPECT_EQ(tagged(code, "scale_", {"x"}, "torch.Tag.inplace", k2_12), "(Tensor(a0!) x, float factor) -> Tensor");
  for (auto release : {k2_13, k2_14}) {
    EXPECT_EQ(tagged(code, "scale_", {"x"}, "torch.Tag.inplace", release),
              "(Tensor(a0!) x, float factor) -> Tensor(a0!)");
    EXPECT_EQ(tagged(code, "scale_", {"x"}, "[Tag.inplace, torch.Tag.pt2_compliant_tag]", release),
              "(Tensor(a0!) x, float factor) -> Tensor(a0!)");
  }
  EXPECT_EQ(tagged(code, "scale_", {"x"}, "(torch.Tag.pt2_compliant_tag,)", k2_14),
            "(Tensor(a0!) x, float factor) -> Tensor");
  EXPECT_EQ(tagged(code, "scale_", {}, "torch.Tag.inplace", k2_14),
            "|custom op 'ops::scale_': torch.Tag.inplace requires mutates_args to name exactly the "
            "first positional argument, 'x'");
  EXPECT_EQ(tagged(code, "scale_", {"x"}, "(Tag.inplace, Tag.out)", k2_14).substr(0, 1), "|");
  EXPECT_EQ(tagged(code, "scale_", {"x"}, "some_tags()", k2_14),
            "|custom op 'ops::scale_': its schema cannot be inferred statically: tags is not known "
            "statically, and from PyTorch 2.13 torch.Tag.inplace and torch.Tag.out change the schema");
  EXPECT_EQ(tagged(code, "scale_", {"x"}, "some_tags()", k2_12), "(Tensor(a0!) x, float factor) -> Tensor");
}

TEST(InferSignature, TagOutReturnsTheKeywordOnlyOutArgumentsFrom2_13) {
  const std::string code = "import torch\nfrom torch import Tensor\n"
                           "def add_out(x: Tensor, y: Tensor, *, out: Tensor) -> Tensor:\n    return out\n"
                           "def minmax(x: Tensor, *, lo: Tensor, hi: Tensor) -> tuple[Tensor, Tensor]:\n    pass\n"
                           "def positional(x: Tensor, out: Tensor) -> Tensor:\n    return out\n";
  EXPECT_EQ(tagged(code, "add_out", {"out"}, "torch.Tag.out", k2_14),
            "(Tensor x, Tensor y, *, Tensor(a2!) out) -> Tensor(a2!)");
  EXPECT_EQ(tagged(code, "minmax", {"lo", "hi"}, "[torch.Tag.out]", k2_14),
            "(Tensor x, *, Tensor(a1!) lo, Tensor(a2!) hi) -> (Tensor(a1!), Tensor(a2!))");
  // Untagged (and before 2.13) a keyword-only Tensor is refused by custom_op.
  EXPECT_EQ(tagged(code, "add_out", {"out"}, "None", k2_14),
            "|custom op 'ops::add_out': parameter 'out' is a keyword-only Tensor, which custom_op "
            "does not take (from PyTorch 2.13 an op tagged torch.Tag.out may have them)");
  EXPECT_EQ(tagged(code, "add_out", {"out"}, "torch.Tag.out", k2_12).substr(0, 1), "|");
  EXPECT_EQ(tagged(code, "positional", {"out"}, "torch.Tag.out", k2_14),
            "|custom op 'ops::positional': torch.Tag.out requires mutable arguments to be "
            "keyword-only; 'out' is not");
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
