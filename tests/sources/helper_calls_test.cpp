// Operators registered through helpers and built names: vLLM's direct_register_custom_op (and the
// projects that copy it: sglang, aiter, aphrodite, ktransformers), helpers declared in
// .schemac.yaml, aliases of torch.library's functions, and names built from module constants.
// The forms are written for these tests after ones seen in those projects; the schemas follow
// torch.library.infer_schema's rules.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "scan_test_support.h"
#include "schemac/sources/registration_lint.h"

namespace schemac::sources::test {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

ScanResult scan_with(std::string_view code, std::vector<CustomOpHelper> helpers) {
  ScanOptions options;
  options.helpers = std::move(helpers);
  return scan_source(code, Language::python, options);
}

// "ns|schema" for each schema found, after settling namespaces across `files`.
std::vector<std::string> across(std::vector<std::pair<std::string, std::string>> files) {
  std::vector<ScannedFile> scanned;
  for (auto& [path, text] : files) scanned.push_back({path, scan_python(text)});
  resolve_across_files(scanned);
  std::vector<std::string> out;
  for (const ScannedFile& file : scanned) {
    for (const FoundSchema& found : file.scan.schemas)
      out.push_back(resolved_namespace(found) + "|" + found.text.text());
    for (const custom_op_inference::InferenceProblem& p : file.scan.inference_problems)
      out.push_back(file.path + ":" + at(p.position) + " " + p.message);
  }
  return out;
}

constexpr std::string_view kVllmUtils =
    "import torch\nfrom torch.library import Library\n"
    "vllm_lib = Library(\"vllm\", \"FRAGMENT\")  # noqa\n"
    "def direct_register_custom_op(op_name, op_func, mutates_args=None, fake_impl=None,\n"
    "                              target_lib=None, dispatch_key=None, tags=()):\n"
    "    schema_str = torch.library.infer_schema(op_func, mutates_args=mutates_args or [])\n"
    "    my_lib = target_lib or vllm_lib\n"
    "    my_lib.define(op_name + schema_str, tags=tags)\n"
    "    my_lib.impl(op_name, op_func, dispatch_key=dispatch_key)\n";

TEST(HelperCalls, KeywordFormInfersFromOpFunc) {
  ScanResult r = scan_python(
      "import torch\nfrom vllm.utils.torch_utils import direct_register_custom_op\n"
      "def all_reduce(tensor: torch.Tensor, group_name: str) -> torch.Tensor:\n    ...\n"
      "direct_register_custom_op(\n    op_name=\"all_reduce\",\n    op_func=all_reduce,\n"
      "    fake_impl=all_reduce_fake,\n)\n");
  ASSERT_EQ(r.schemas.size(), 1u);
  EXPECT_EQ(r.schemas[0].text.text(), "all_reduce(Tensor tensor, str group_name) -> Tensor");
  EXPECT_EQ(at(r.schemas[0].position), "6:13");
  EXPECT_EQ(r.schemas[0].call, "direct_register_custom_op");
  EXPECT_TRUE(r.schemas[0].inferred);
  ASSERT_TRUE(r.schemas[0].helper);
  EXPECT_EQ(r.schemas[0].helper->module, "vllm.utils.torch_utils");
  EXPECT_EQ(r.schemas[0].helper->target_lib, "");
  EXPECT_THAT(r.inference_problems, ::testing::IsEmpty());
}

TEST(HelperCalls, PositionalFormWithMutatesArgs) {
  // aiter's form: direct_register_custom_op("name", fn, ["out"]).
  ScanResult r = scan_python(
      "from typing import Optional\nimport torch\n"
      "def topk(out: torch.Tensor, probs: torch.Tensor, k: Optional[torch.Tensor],\n"
      "         val: int, eps: float = 1e-6) -> None:\n    ...\n"
      "direct_register_custom_op('topk', topk, ['out'])\n");
  EXPECT_THAT(texts(r), ElementsAre("topk(Tensor(a0!) out, Tensor probs, Tensor? k, SymInt val, "
                                    "float eps=1e-06) -> ()"));
}

TEST(HelperCalls, TargetLibBoundInTheFileGivesTheNamespace) {
  ScanResult r = scan_python(
      "import torch\nfrom torch.library import Library\n"
      "silly_lib = Library('silly', 'FRAGMENT')\n"
      "def attention(q: torch.Tensor, out: torch.Tensor) -> None: ...\n"
      "direct_register_custom_op(op_name='attention', op_func=attention,\n"
      "                          mutates_args=['out'], target_lib=silly_lib,\n"
      "                          dispatch_key='CUDA')\n");
  ASSERT_EQ(r.schemas.size(), 1u);
  EXPECT_EQ(r.schemas[0].library_namespace, "silly");
  EXPECT_FALSE(r.schemas[0].helper);
  EXPECT_EQ(r.schemas[0].text.text(), "attention(Tensor q, Tensor(a1!) out) -> ()");
  ASSERT_EQ(r.keys.size(), 1u);
  EXPECT_EQ(r.keys[0].name, "CUDA");
}

TEST(HelperCalls, APartialBindsTargetLib) {
  // vLLM's kernels/aiter_ops.py: functools.partial(direct_register_custom_op, target_lib=...).
  ScanResult r = scan_python(
      "import functools\nimport torch\nfrom torch.library import Library\n"
      "from vllm.utils.torch_utils import direct_register_custom_op\n"
      "aiter_lib = Library('vllm_aiter', 'FRAGMENT')\n"
      "register_aiter = functools.partial(\n    direct_register_custom_op, target_lib=aiter_lib\n)\n"
      "def rms(x: torch.Tensor, eps: float) -> torch.Tensor: ...\n"
      "register_aiter(op_name='rms_norm', op_func=rms, mutates_args=[])\n");
  ASSERT_EQ(r.schemas.size(), 1u);
  EXPECT_EQ(r.schemas[0].text.text(), "rms_norm(Tensor x, float eps) -> Tensor");
  EXPECT_EQ(r.schemas[0].library_namespace, "vllm_aiter");
}

TEST(HelperCalls, ACallAfterAStubDefIsNotAMethod) {
  // `def f(...) -> T: ...` ends in '.', which is not the receiver of the next line's call.
  ScanResult r = scan_python(
      "import torch\nfrom vllm.utils import direct_register_custom_op as reg\n"
      "def f(x: torch.Tensor) -> torch.Tensor: ...\nreg('f', f)\n"
      "def g(x: torch.Tensor) -> torch.Tensor: ...\ntorch.library.define('a::b', '(Tensor x) -> Tensor')\n");
  EXPECT_THAT(texts(r), ElementsAre("f(Tensor x) -> Tensor", "a::b(Tensor x) -> Tensor"));
}

TEST(HelperCalls, HelperModuleAmongTheInputsGivesTheNamespace) {
  EXPECT_THAT(
      across({{"src/vllm/utils/torch_utils.py", std::string(kVllmUtils)},
              {"src/vllm/layers/norm.py",
               "import torch\nfrom vllm.utils.torch_utils import direct_register_custom_op\n"
               "def rms(x: torch.Tensor, w: torch.Tensor, eps: float) -> torch.Tensor: ...\n"
               "direct_register_custom_op('rms', rms)\n"}}),
      ElementsAre("vllm|rms(Tensor x, Tensor w, float eps) -> Tensor"));
}

TEST(HelperCalls, TargetLibBoundInAnotherFile) {
  EXPECT_THAT(across({{"pkg/ops/lib.py",
                       "from torch.library import Library\nmy_lib = Library('mine', 'FRAGMENT')\n"},
                      {"pkg/ops/a.py",
                       "import torch\nfrom pkg.ops.lib import my_lib\n"
                       "def f(x: torch.Tensor) -> torch.Tensor: ...\n"
                       "direct_register_custom_op('f', f, [], target_lib=my_lib)\n"}}),
              ElementsAre("mine|f(Tensor x) -> Tensor"));
}

TEST(HelperCalls, UnknownNamespaceIsReportedNotGuessed) {
  std::vector<std::string> out =
      across({{"a.py",
               "import torch\nfrom sglang.srt.utils import direct_register_custom_op\n"
               "def f(x: torch.Tensor) -> torch.Tensor: ...\n"
               "direct_register_custom_op('f', f, [])\n"}});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0], "|f(Tensor x) -> Tensor");
  EXPECT_THAT(out[1], HasSubstr("a.py:4:27 custom op 'f': its namespace is not known statically: "
                                "direct_register_custom_op registers into the Library of its own "
                                "module (sglang.srt.utils)"));
}

TEST(HelperCalls, WhatCannotBeKnownIsReported) {
  ScanResult r = scan_python(
      "import torch\nfrom vllm.utils import direct_register_custom_op\n"
      "for name in NAMES:\n    direct_register_custom_op(name, impls[name])\n"
      "direct_register_custom_op('g', make_impl(), [])\n"
      "def h(x: SomeType) -> torch.Tensor: ...\n"
      "direct_register_custom_op('h', h)\n");
  EXPECT_THAT(r.schemas, ::testing::IsEmpty());
  ASSERT_EQ(r.inference_problems.size(), 3u);
  EXPECT_EQ(at(r.inference_problems[0].position), "4:31");
  EXPECT_THAT(r.inference_problems[0].message,
              HasSubstr("the operator name is not known statically ('name' is not a "
                        "module-level string constant of this file)"));
  EXPECT_THAT(r.inference_problems[1].message, HasSubstr("op_func is not the name of a `def`"));
  EXPECT_THAT(r.inference_problems[2].message, HasSubstr("the type of parameter 'x'"));
  for (const auto& p : r.inference_problems) EXPECT_FALSE(p.rejected);
  EXPECT_EQ(r.named_definitions.size(), 2u);  // 'g' and 'h' still count as defined
}

TEST(HelperCalls, TheHelpersOwnBodyIsNotAFinding) {
  ScanResult r = scan_python(kVllmUtils);
  EXPECT_THAT(r.inference_problems, ::testing::IsEmpty());
  ASSERT_EQ(r.helper_definitions.size(), 1u);
  EXPECT_EQ(r.helper_definitions[0].default_ns, "vllm");
  ASSERT_EQ(r.libraries.size(), 1u);
  EXPECT_EQ(r.libraries[0].name, "vllm_lib");
}

TEST(HelperCalls, ABodyAfterASignatureClosedOnItsOwnLineIsStillTheBody) {
  // Black's layout: the `):` of a long signature starts a line at the def's indentation.
  ScanResult r = scan_python(
      "def direct_register_custom_op(\n    op_name: str,\n    target_lib=None,\n):\n"
      "    my_lib.define(op_name + schema_str)\n"
      "def other(\n    x,\n):\n    lib.define(x)\n");
  ASSERT_EQ(r.inference_problems.size(), 1u);  // only the one outside the helper
  EXPECT_EQ(at(r.inference_problems[0].position), "9:16");
}

TEST(HelperCalls, RejectedSchemasAreErrorsAtTheParameter) {
  ScanResult r = scan_python(
      "import torch\ndef f(x: torch.Tensor, shape: tuple[int, int]) -> torch.Tensor: ...\n"
      "direct_register_custom_op('f', f, mutates_args=[])\n");
  ASSERT_EQ(r.inference_problems.size(), 1u);
  EXPECT_TRUE(r.inference_problems[0].rejected);
  EXPECT_EQ(at(r.inference_problems[0].position), "2:31");
}

TEST(ConfiguredHelpers, DecoratorLikeCustomOpWithItsNamespace) {
  ScanResult r = scan_with(
      "import torch\nfrom .utils import custom_op_with_fake\n"
      "@custom_op_with_fake('scale', mutates_args=())\n"
      "def scale(x: torch.Tensor, s: float = 2.0) -> torch.Tensor: ...\n"
      "@custom_op_with_fake('other::keep', mutates_args=())\n"
      "def keep(x: torch.Tensor) -> torch.Tensor: ...\n",
      {{"custom_op_with_fake", HelperKind::custom_op, "tfl"}});
  ASSERT_EQ(r.schemas.size(), 2u);
  EXPECT_EQ(resolved_namespace(r.schemas[0]), "tfl");
  EXPECT_EQ(r.schemas[0].text.text(), "scale(Tensor x, float s=2.0) -> Tensor");
  EXPECT_EQ(resolved_namespace(r.schemas[1]), "other");
}

TEST(ConfiguredHelpers, FunctionLikeDirectRegisterAndDefine) {
  ScanResult r = scan_with(
      "import torch\ndef f(x: torch.Tensor) -> torch.Tensor: ...\n"
      "register_op('f', f)\n"
      "my_define('g(Tensor x) -> Tensor')\n"
      "my_define('h::k', '(Tensor x) -> Tensor')\n",
      {{"register_op", HelperKind::direct_register_custom_op, "proj"},
       {"my_define", HelperKind::define, "proj"}});
  std::vector<std::string> out;
  for (const FoundSchema& found : r.schemas)
    out.push_back(resolved_namespace(found) + "|" + found.text.text());
  std::vector<ScannedFile> files{{"x.py", r}};
  resolve_across_files(files);
  EXPECT_THAT(out, ElementsAre("|f(Tensor x) -> Tensor", "proj|g(Tensor x) -> Tensor",
                               "h|h::k(Tensor x) -> Tensor"));
  EXPECT_EQ(resolved_namespace(files[0].scan.schemas[0]), "proj");
}

TEST(ConfiguredHelpers, ADecoratorThatNamesTheOperatorAfterTheFunction) {
  // sglang's register_custom_op: op_name defaults to the function's name, mutates_args to none,
  // and it decorates with or without a call.
  ScanResult r = scan_with(
      "import torch\nfrom sglang.srt.utils.custom_op import register_custom_op\n"
      "@register_custom_op(mutates_args=['out'])\n"
      "def fused(x: torch.Tensor, out: torch.Tensor) -> None: ...\n"
      "@register_custom_op\ndef plain(x: torch.Tensor, k: int = 4) -> torch.Tensor: ...\n"
      "@register_custom_op(op_name='renamed', fake_impl=fake)\n"
      "def f(x: torch.Tensor) -> torch.Tensor: ...\n"
      "def g(x: torch.Tensor) -> list[torch.Tensor]: ...\n"
      "g_op = register_custom_op(g, mutates_args=[])\n"
      "@other_decorator\ndef h(x): ...\n",
      {{"register_custom_op", HelperKind::custom_op, "sglang"}});
  EXPECT_THAT(texts(r), ElementsAre("fused(Tensor x, Tensor(a1!) out) -> ()",
                                    "plain(Tensor x, SymInt k=4) -> Tensor",
                                    "renamed(Tensor x) -> Tensor", "g(Tensor x) -> Tensor[]"));
  for (const FoundSchema& found : r.schemas) EXPECT_EQ(resolved_namespace(found), "sglang");
  EXPECT_EQ(at(r.schemas[1].position), "6:5");  // at the function's name
  EXPECT_THAT(r.inference_problems, ::testing::IsEmpty());
}

TEST(ConfiguredHelpers, NonLiteralNameOfAHelperIsReported) {
  ScanResult r = scan_with("@my_op(make_name(), mutates_args=())\ndef f(x): ...\n",
                           {{"my_op", HelperKind::custom_op, ""}});
  ASSERT_EQ(r.inference_problems.size(), 1u);
  EXPECT_FALSE(r.inference_problems[0].rejected);
  EXPECT_THAT(r.inference_problems[0].message, HasSubstr("is not checked"));
}

TEST(Aliases, CustomOpAndRegisterFakeUnderAVersionCheck) {
  // flash-attention's layout.
  ScanResult r = scan_python(
      "import torch\nif torch.__version__ >= '2.4.0':\n"
      "    _wrap = torch.library.custom_op\n    _fake = torch.library.register_fake\n"
      "else:\n    def noop(name, fn=None, /, *, mutates_args, device_types=None):\n"
      "        return fn\n    _wrap = noop\n    _fake = noop\n"
      "@_wrap('flash::fwd', mutates_args=(), device_types='cuda')\n"
      "def fwd(q: torch.Tensor, p: float) -> tuple[torch.Tensor, torch.Tensor]: ...\n"
      "@_fake('flash::fwd')\ndef fwd_fake(q, p): ...\n");
  EXPECT_THAT(texts(r), ElementsAre("flash::fwd(Tensor q, float p) -> (Tensor, Tensor)"));
  ASSERT_EQ(r.implementations.size(), 1u);
  EXPECT_EQ(r.implementations[0].name, "flash::fwd");
}

TEST(Aliases, ImportedUnderAnotherNameAndLibraryAlias) {
  ScanResult r = scan_python(
      "import torch\nfrom torch.library import custom_op as co, Library as L\n"
      "lib = L('aliased', 'DEF')\nlib.define('g(Tensor x) -> Tensor')\n"
      "L('direct', 'DEF').define('h(Tensor x) -> Tensor')\n"
      "@co('ns::f', mutates_args=())\ndef f(x: torch.Tensor) -> torch.Tensor: ...\n");
  ASSERT_EQ(r.schemas.size(), 3u);
  EXPECT_EQ(r.schemas[0].library_namespace, "aliased");
  EXPECT_EQ(r.schemas[1].library_namespace, "direct");
  EXPECT_EQ(r.schemas[2].text.text(), "ns::f(Tensor x) -> Tensor");
}

TEST(BuiltNames, FStringOverAModuleConstant) {
  // causal-conv1d's form.
  ScanResult r = scan_python(
      "import torch\nLIBRARY_NAME = \"DaoAILab\"\n"
      "@torch.library.custom_op(f\"{LIBRARY_NAME}::_fwd_cpp\", mutates_args={\"out\"})\n"
      "def _fwd_cpp(x: torch.Tensor, out: torch.Tensor) -> None: ...\n"
      "torch.library.define(LIBRARY_NAME + '::g', '(Tensor x) -> Tensor')\n"
      "lib = torch.library.Library(LIBRARY_NAME, 'FRAGMENT')\n"
      "lib.define(f'{OTHER}(Tensor x) -> Tensor')\n");
  EXPECT_THAT(texts(r), ElementsAre("DaoAILab::_fwd_cpp(Tensor x, Tensor(a1!) out) -> ()",
                                    "DaoAILab::g(Tensor x) -> Tensor"));
  EXPECT_EQ(at(r.schemas[0].position), "3:26");
  ASSERT_EQ(r.inference_problems.size(), 1u);  // OTHER: not a constant of this file
  EXPECT_EQ(at(r.inference_problems[0].position), "7:12");
}

}  // namespace
}  // namespace schemac::sources::test
