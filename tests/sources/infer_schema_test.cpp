// Schemas inferred from Python type hints, as torch.library.infer_schema gives them. The forms
// are written for these tests after ones seen in vLLM, sglang, torchao, flashinfer, TensorRT-LLM
// and nvalchemiops; the expected texts follow infer_schema's tables.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "scan_test_support.h"

namespace schemac::sources::test {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// The one inferred schema of `code` (custom_op's name plus the inferred signature).
std::string inferred(std::string_view code) {
  ScanResult r = scan_python(code);
  for (const custom_op_inference::InferenceProblem& p : r.inference_problems) ADD_FAILURE() << at(p.position) << " " << p.message;
  if (r.schemas.size() != 1) return "<" + std::to_string(r.schemas.size()) + " schemas>";
  EXPECT_TRUE(r.schemas[0].inferred);
  return r.schemas[0].text.text();
}

// The problems of `code`, as "line:col rejected|unknown: message".
std::vector<std::string> problems(std::string_view code) {
  std::vector<std::string> out;
  for (const custom_op_inference::InferenceProblem& p : scan_python(code).inference_problems) {
    out.push_back(at(p.position) + (p.rejected ? " rejected: " : " unknown: ") + p.message);
  }
  return out;
}

TEST(InferSchema, DecoratorWithTensorsAndScalars) {
  EXPECT_EQ(inferred("import torch\n"
                     "@torch.library.custom_op(\"mylib::rms\", mutates_args=())\n"
                     "def rms(x: torch.Tensor, w: torch.Tensor, eps: float, n: int, flag: bool,\n"
                     "        mode: str) -> torch.Tensor:\n    ...\n"),
            "mylib::rms(Tensor x, Tensor w, float eps, SymInt n, bool flag, str mode) -> Tensor");
}

TEST(InferSchema, LocatedAtTheNameString) {
  ScanResult r = scan_python("import torch\n\n@torch.library.custom_op(\n    'a::f', mutates_args=[])\n"
                             "def f(x: torch.Tensor) -> torch.Tensor: ...\n");
  ASSERT_EQ(r.schemas.size(), 1u);
  EXPECT_EQ(at(r.schemas[0].position), "4:5");
  EXPECT_EQ(r.schemas[0].call, "custom_op");
}

TEST(InferSchema, OptionalAndListForms) {
  EXPECT_EQ(inferred("from typing import List, Optional, Sequence, Union\nimport torch\n"
                     "from torch import Tensor\n"
                     "@torch.library.custom_op('a::f', mutates_args=())\n"
                     "def f(a: Optional[Tensor], b: Tensor | None, c: List[Tensor], d: list[int],\n"
                     "      e: Sequence[float], g: Optional[List[int]], h: list[Optional[Tensor]],\n"
                     "      i: None | list[bool], j: Union[Tensor, None], k: 'torch.Tensor') -> None: ...\n"),
            "a::f(Tensor? a, Tensor? b, Tensor[] c, SymInt[] d, float[] e, SymInt[]? g, Tensor?[] h, "
            "bool[]? i, Tensor? j, Tensor k) -> ()");
}

TEST(InferSchema, NumberDtypeDeviceAndTheirOptionals) {
  EXPECT_EQ(inferred("import torch, typing\nfrom torch.types import Number\n"
                     "@torch.library.custom_op('a::f', mutates_args=())\n"
                     "def f(s: Number, t: typing.Union[int, float, bool], u: typing.Optional[Number],\n"
                     "      v: list[Number], d: torch.dtype, e: torch.device, g: torch.dtype | None,\n"
                     "      h: typing.Optional[torch.device]) -> Number: ...\n"),
            "a::f(Scalar s, Scalar t, Scalar? u, Scalar[] v, ScalarType d, Device e, ScalarType? g, "
            "Device? h) -> Scalar");
}

TEST(InferSchema, DefaultsAsPyTorchWritesThem) {
  EXPECT_EQ(inferred("import torch\nEPS = 1e-6\n"
                     "@torch.library.custom_op('a::f', mutates_args=())\n"
                     "def f(x: torch.Tensor, a: int = -1, b: float = 0.5, c: float = 1e-05,\n"
                     "      d: bool = True, e: Optional[int] = None, g: str = 'sum', h: float = EPS,\n"
                     "      i: torch.dtype = torch.float, j: float = 2, k: int = 0x10,\n"
                     "      l: float = float('inf'), m: float = 1e16, n: float = 100.0) -> torch.Tensor: ...\n"),
            "a::f(Tensor x, SymInt a=-1, float b=0.5, float c=1e-05, bool d=True, SymInt? e=None, "
            "str g=\"sum\", float h=1e-06, ScalarType i=float32, float j=2, SymInt k=16, float l=inf, "
            "float m=1e+16, float n=100.0) -> Tensor");
}

TEST(InferSchema, KeywordOnlyArguments) {
  EXPECT_EQ(inferred("import torch\n@torch.library.custom_op('a::f', mutates_args=())\n"
                     "def f(x: torch.Tensor, *, scale: float = 1.0, n: int) -> None: ...\n"),
            "a::f(Tensor x, *, float scale=1.0, SymInt n) -> ()");
  // infer_schema writes a keyword-only Tensor (vLLM's helper defines it through Library.define),
  // but custom_op itself refuses one unless the op is tagged torch.Tag.out.
  EXPECT_EQ(inferred("import torch\nfrom torch.library import Library\nlib = Library('a', 'FRAGMENT')\n"
                     "def f(x: torch.Tensor, *, scale: float = 1.0, out: torch.Tensor) -> None: ...\n"
                     "direct_register_custom_op('f', f, target_lib=lib)\n"),
            "f(Tensor x, *, float scale=1.0, Tensor out) -> ()");  // the namespace is lib's
  EXPECT_THAT(problems("import torch\n@torch.library.custom_op('a::f', mutates_args=())\n"
                       "def f(x: torch.Tensor, *, out: torch.Tensor) -> None: ...\n"),
              ElementsAre("3:27 rejected: custom op 'a::f': parameter 'out' is a keyword-only Tensor, "
                          "which custom_op does not take (from PyTorch 2.13 an op tagged "
                          "torch.Tag.out may have them)"));
}

TEST(InferSchema, MutatesArgsAnnotateByParameterIndex) {
  EXPECT_EQ(inferred("import torch\n@torch.library.custom_op('a::f', mutates_args=('cache', 'outs'))\n"
                     "def f(x: torch.Tensor, cache: torch.Tensor, n: int, outs: list[torch.Tensor],\n"
                     "      o: torch.Tensor | None) -> None: ...\n"),
            "a::f(Tensor x, Tensor(a1!) cache, SymInt n, Tensor(a3!)[] outs, Tensor? o) -> ()");
  EXPECT_EQ(inferred("import torch\n@torch.library.custom_op('a::g', mutates_args=\"unknown\")\n"
                     "def g(x: torch.Tensor, n: int, y: Optional[torch.Tensor]) -> None: ...\n"),
            "a::g(Tensor(a0!) x, SymInt n, Tensor(a2!)? y) -> ()");
  EXPECT_EQ(inferred("import torch\nMUT = ['y']\n@torch.library.custom_op('a::h', mutates_args=MUT)\n"
                     "def h(x: torch.Tensor, y: torch.Tensor) -> None: ...\n"),
            "a::h(Tensor x, Tensor(a1!) y) -> ()");
}

TEST(InferSchema, Returns) {
  const char* head = "import torch, typing\nfrom torch import Tensor\n@torch.library.custom_op('a::f', mutates_args={})\n";
  auto with_return = [&](std::string hint) {
    return inferred(std::string(head) + "def f(x: Tensor) -> " + hint + ":\n    pass\n");
  };
  EXPECT_EQ(with_return("tuple[Tensor, Tensor]"), "a::f(Tensor x) -> (Tensor, Tensor)");
  EXPECT_EQ(with_return("typing.Tuple[Tensor, int, float, bool]"),
            "a::f(Tensor x) -> (Tensor, SymInt, float, bool)");
  EXPECT_EQ(with_return("tuple[Tensor]"), "a::f(Tensor x) -> ((Tensor))");
  EXPECT_EQ(with_return("list[Tensor]"), "a::f(Tensor x) -> Tensor[]");
  EXPECT_EQ(with_return("typing.List[Tensor]"), "a::f(Tensor x) -> Tensor[]");
  EXPECT_EQ(with_return("None"), "a::f(Tensor x) -> ()");
  EXPECT_EQ(with_return("'Tensor'"), "a::f(Tensor x) -> Tensor");
}

TEST(InferSchema, CallFormsAndTritonOp) {
  ScanResult r = scan_python(
      "import torch\nfrom torch.library import custom_op, triton_op\n"
      "def impl(x: torch.Tensor) -> torch.Tensor: ...\n"
      "op = custom_op('a::f', impl, mutates_args=())\n"
      "op2 = torch.library.custom_op('a::g', mutates_args=())(impl)\n"
      "@triton_op('a::h', mutates_args={})\ndef h(x: torch.Tensor, y: int) -> torch.Tensor: ...\n");
  EXPECT_THAT(texts(r), ElementsAre("a::f(Tensor x) -> Tensor", "a::g(Tensor x) -> Tensor",
                                    "a::h(Tensor x, SymInt y) -> Tensor"));
  EXPECT_TRUE(r.inference_problems.empty());
}

TEST(InferSchema, AliasesImportsAndStackedDecorators) {
  EXPECT_EQ(inferred("import torch\nimport typing as t\nfrom torch import Tensor as T\n"
                     "TensorList = t.List[T]\ntype MaybeInt = int | None\n"
                     "@functools.cache\n@torch.library.custom_op('a::f', mutates_args=())\n"
                     "@torch.no_grad()\ndef f(x: TensorList, n: MaybeInt = None) -> T: ...\n"),
            "a::f(Tensor[] x, SymInt? n=None) -> Tensor");
}

TEST(InferSchema, WhatPyTorchRejects) {
  const char* head = "import torch\n@torch.library.custom_op('a::f', mutates_args=('n',))\n";
  EXPECT_THAT(problems(std::string(head) + "def f(x, n: int) -> None: ..."),
              ElementsAre(HasSubstr("3:7 rejected: custom op 'a::f': parameter 'x' has no type annotation"),
                          HasSubstr("3:10 rejected: custom op 'a::f': parameter 'n' is in mutates_args")));
  EXPECT_THAT(problems(std::string(head) + "def f(n: torch.Tensor, *args: int) -> None: ..."),
              ElementsAre(HasSubstr("*args")));
  EXPECT_THAT(problems(std::string(head) + "def f(n: torch.Tensor, /) -> None: ..."),
              ElementsAre(HasSubstr("positional-only")));
  EXPECT_THAT(problems(std::string(head) + "def f(n: tuple[int, int]) -> None: ..."),
              ElementsAre(HasSubstr("tuples are not inputs")));
  EXPECT_THAT(problems(std::string(head) + "def f(n: torch.Tensor, m: dict[str, int]) -> None: ..."),
              ElementsAre(HasSubstr("'dict[str,int]', which infer_schema does not support")));
  EXPECT_THAT(problems(std::string(head) + "def f(n: torch.Tensor):\n  pass"),
              ElementsAre(HasSubstr("no return annotation")));
  EXPECT_THAT(problems(std::string(head) + "def f(n: torch.Tensor) -> Optional[torch.Tensor]: ..."),
              ElementsAre(HasSubstr("the return type 'Tensor | None'")));
  EXPECT_THAT(problems(std::string(head) + "def f(n: torch.Tensor, k: list[int] = [1]) -> None: ..."),
              ElementsAre(HasSubstr("a tuple, list, set or dict")));
  EXPECT_THAT(problems("import torch\n@torch.library.custom_op('a::f', mutates_args=('y',))\n"
                       "def f(x: torch.Tensor) -> None: ..."),
              ElementsAre(HasSubstr("2:48 rejected: custom op 'a::f': mutates_args names 'y'")));
  EXPECT_THAT(problems("import torch\n@torch.library.custom_op('a::f')\n"
                       "def f(x: torch.Tensor) -> None: ..."),
              ElementsAre(HasSubstr("needs mutates_args=")));
}

TEST(InferSchema, WhatIsNotKnownStaticallyIsReported) {
  EXPECT_THAT(problems("import torch\nfrom .types import KVCache\n"
                       "@torch.library.custom_op('a::f', mutates_args=())\n"
                       "def f(x: KVCache) -> None: ..."),
              ElementsAre(HasSubstr("4:10 unknown: custom op 'a::f': its schema cannot be inferred "
                                    "statically: the type of parameter 'x': 'KVCache' is imported from "
                                    "'.types.KVCache'")));
  EXPECT_THAT(problems("import torch\nfrom cfg import BLOCK\n"
                       "@torch.library.custom_op('a::f', mutates_args=())\n"
                       "def f(x: torch.Tensor, b: int = BLOCK) -> None: ..."),
              ElementsAre(HasSubstr("the default of parameter 'b'")));
  EXPECT_THAT(problems("import torch\nname = make_name()\n"
                       "@torch.library.custom_op(name, mutates_args=())\n"
                       "def f(x: torch.Tensor) -> None: ..."),
              ElementsAre(HasSubstr("3:26 unknown: an operator defined here is not checked")));
  ScanResult r = scan_python("import torch\n@torch.library.custom_op('a::f', mutates_args=())\n"
                             "def f(x: Unknown) -> None: ...\n");
  EXPECT_TRUE(r.schemas.empty());
  ASSERT_EQ(r.named_definitions.size(), 1u);  // the name still counts as defined
  EXPECT_EQ(r.named_definitions[0].name, "a::f");
}

TEST(InferSchema, AnotherLibrarysCustomOpIsLeftAlone) {
  ScanResult r = scan_python("from mylib import custom_op\n@custom_op(make_name())\ndef f(x): ...\n");
  EXPECT_TRUE(r.inference_problems.empty());
}

}  // namespace
}  // namespace schemac::sources::test
