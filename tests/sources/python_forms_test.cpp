// Python forms read as PyTorch reads them: the same custom op defined in both branches of a
// module-level if/else or try/except (alternatives, as C++'s #if/#else), constants imported from
// another module given with the file, helpers that name an operator after its function or
// `<module>::<function>`, and the prototype torch._custom_op / torch._custom_ops custom_op of
// PyTorch 2.1-2.3 (still in 2.14: what it inferred and refused there was checked by running
// such files). The shapes are written for these tests after ones seen in kernel libraries that
// support several PyTorch releases.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "scan_test_support.h"
#include "schemac/sources/registration_lint.h"
#include "schemac/sources/tally.h"

namespace schemac::sources::test {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::vector<std::string> findings(std::vector<ScannedFile>& files) {
  resolve_across_files(files);
  std::vector<std::string> out;
  for (const diagnostics::Diagnostic& d : lint_sources(files)) {
    out.push_back(d.location.file + ":" + std::to_string(d.location.line) + " " + d.rule + " " +
                  d.message);
  }
  return out;
}

std::vector<std::string> schemas_of(const std::vector<ScannedFile>& files) {
  std::vector<std::string> out;
  for (const ScannedFile& file : files) {
    for (const FoundSchema& found : file.scan.schemas) {
      // A schema written with its namespace ("ns::op(...)") keeps it; others get the resolved one.
      std::string text = found.text.text();
      bool qualified = text.substr(0, text.find('(')).find("::") != std::string::npos;
      out.push_back(qualified ? text : resolved_namespace(found) + "::" + text);
    }
  }
  return out;
}

TEST(PythonForms, BranchesOfIfAndTryAreAlternatives) {
  std::vector<ScannedFile> files{
      {"ops.py", scan_python("import torch\n"
                             "lib = torch.library.Library('kl', 'FRAGMENT')\n"
                             "if hasattr(torch.library, 'custom_op'):\n"
                             "    @torch.library.custom_op('kl::gelu', mutates_args=())\n"
                             "    def gelu(x: torch.Tensor) -> torch.Tensor:\n"
                             "        return x\n"
                             "else:\n"
                             "    lib.define('gelu(Tensor x) -> Tensor')\n"
                             "try:\n"
                             "    from fast import quick\n"
                             "    torch.library.define('kl::quick', '(Tensor x) -> Tensor')\n"
                             "except ImportError:\n"
                             "    torch.library.define('kl::quick', '(Tensor x) -> Tensor')\n"
                             "finally:\n"
                             "    pass\n"
                             "torch.library.define('kl::twice', '(Tensor x) -> Tensor')\n"
                             "if True:\n"
                             "    torch.library.define('kl::twice', '(Tensor x) -> Tensor')\n")}};
  EXPECT_THAT(schemas_of(files),
              ElementsAre("kl::gelu(Tensor x) -> Tensor", "kl::gelu(Tensor x) -> Tensor",
                          "kl::quick(Tensor x) -> Tensor", "kl::quick(Tensor x) -> Tensor",
                          "kl::twice(Tensor x) -> Tensor", "kl::twice(Tensor x) -> Tensor"));
  // Only the definition after the if statement, and the one inside it, both run.
  std::vector<std::string> found = findings(files);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_THAT(found[0], HasSubstr("ops.py:18 duplicate-definition"));
}

TEST(PythonForms, ConstantsImportedFromAnotherModule) {
  std::vector<ScannedFile> files{
      {"pkg/ops.py", scan_python("import torch\n"
                                 "from pkg.constants import LIBRARY_NAME\n"
                                 "import pkg.constants as c\n"
                                 "from .names import PREFIX\n"
                                 "@torch.library.custom_op(f\"{LIBRARY_NAME}::fwd\", "
                                 "mutates_args=())\n"
                                 "def fwd(x: torch.Tensor) -> torch.Tensor:\n    return x\n"
                                 "torch.library.define(c.LIBRARY_NAME + '::bwd', '(Tensor g) -> "
                                 "Tensor')\n"
                                 "torch.library.define(f'{c.LIBRARY_NAME}::{PREFIX}_x', "
                                 "'(Tensor g) -> Tensor')\n"
                                 "torch.library.define(f'{MISSING}::y', '(Tensor g) -> Tensor')\n"
                                 "from other.place import MISSING\n")},
      {"src/pkg/constants.py", scan_python("LIBRARY_NAME = 'fused'\nOTHER = LIBRARY_NAME\n")},
      {"pkg/names.py", scan_python("PREFIX = 'grad'\n")},
  };
  std::vector<std::string> found = findings(files);
  EXPECT_THAT(schemas_of(files),
              ElementsAre("fused::fwd(Tensor x) -> Tensor", "fused::bwd(Tensor g) -> Tensor",
                          "fused::grad_x(Tensor g) -> Tensor"));
  // The imported name's bytes map to where it is written in this file.
  EXPECT_EQ(at(files[0].scan.schemas[0].text.position(0)), "5:28");  // the f-string's field
  ASSERT_EQ(found.size(), 1u);
  EXPECT_THAT(found[0], HasSubstr("'MISSING' is imported from 'other.place', which is not among "
                                  "the files given"));
}

TEST(PythonForms, HelpersNameOperatorsAfterTheirFunctionOrModule) {
  ScanOptions options;
  options.helpers = {{"register_op", HelperKind::custom_op, "", DefaultName::module_function},
                     {"simple_op", HelperKind::custom_op, "mine", DefaultName::function}};
  const char* code =
      "import torch\n"
      "@register_op(mutates_args=())\n"
      "def rms_norm(x: torch.Tensor, eps: float) -> torch.Tensor:\n    return x\n"
      "@simple_op\n"
      "def silu(x: torch.Tensor) -> torch.Tensor:\n    return x\n";
  std::vector<ScannedFile> files{
      {"kernels/norms.py", scan_source(code, Language::python, options)},
      {"kernels/act/__init__.py", scan_source(code, Language::python, options)},
  };
  // Each helper's operators are named as it names them; the same `mine::silu` in both files is a
  // real duplicate.
  EXPECT_THAT(
      findings(files),
      ElementsAre(HasSubstr("act/__init__.py:6 duplicate-definition operator 'mine::silu'")));
  EXPECT_THAT(schemas_of(files), ElementsAre("norms::rms_norm(Tensor x, float eps) -> Tensor",
                                             "mine::silu(Tensor x) -> Tensor",
                                             "act::rms_norm(Tensor x, float eps) -> Tensor",
                                             "mine::silu(Tensor x) -> Tensor"));
}

TEST(PythonForms, ThePrototypeCustomOp) {
  std::vector<ScannedFile> files{
      {"proto.py",
       scan_python("import torch\n"
                   "from torch import Tensor\n"
                   "import torch._custom_op.impl as ci\n"
                   "@ci.custom_op('protons::scale')\n"
                   "def scale(x: Tensor, factor: float = 2.0) -> Tensor:\n"
                   "    raise NotImplementedError\n"
                   "torch._custom_ops.custom_op('protons::given', '(Tensor x, int n) -> Tensor')\n"
                   "@torch._custom_ops.custom_op('protons::wrong')\n"
                   "def other(x: Tensor) -> Tensor:\n    ...\n"
                   "@torch._custom_ops.custom_op('protons::nothing')\n"
                   "def nothing(x: Tensor) -> None:\n    ...\n")}};
  std::vector<std::string> found = findings(files);
  // As PyTorch 2.14 registers them: inferred with mutates_args=(), or the schema given.
  EXPECT_THAT(schemas_of(files), ElementsAre("protons::scale(Tensor x, float factor=2.0) -> Tensor",
                                             "protons::given(Tensor x, int n) -> Tensor",
                                             "protons::nothing(Tensor x) -> ()"));
  ASSERT_EQ(found.size(), 2u);
  EXPECT_THAT(found[0], HasSubstr("proto.py:8 custom-op-schema"));
  EXPECT_THAT(found[0], HasSubstr("expected `func` to have name 'wrong' but got 'other'"));
  EXPECT_THAT(found[1], HasSubstr("proto.py:11 custom-op-schema"));
  EXPECT_THAT(found[1], HasSubstr("only supports functional operators"));
}

TEST(PythonForms, TheTallySaysWhatWasLookedAt) {
  std::vector<ScannedFile> files{
      {"a.cpp", scan_cpp("TORCH_LIBRARY(t, m) {\n  m.def(\"f(Tensor x) -> Tensor\");\n"
                         "  m.def(\"g\", &g);\n}\n"
                         "static auto r = torch::RegisterOperators().op(\"t::h(Tensor x) -> "
                         "Tensor\", &h);\n")},
      {"b.py", scan_python("import torch\n"
                           "@torch.library.custom_op('t::k', mutates_args=())\n"
                           "def k(x: torch.Tensor) -> torch.Tensor:\n    return x\n")},
      {"c.py", scan_python("print('no operators here')\n")},
  };
  resolve_across_files(files);
  FormTally t = tally(files);
  EXPECT_EQ(tally_line(t),
            "registration code: 3 files; schemas checked: 1 literal, 1 inferred, 0 helper, 1 "
            "legacy API; 1 name-only (inferred when the library loads)");
}

}  // namespace
}  // namespace schemac::sources::test
