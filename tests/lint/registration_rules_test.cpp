// Registration code gets lint's mutation and alias rules of the extension profile, as warnings
// located at the argument inside the string literal, for written and inferred schemas alike.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "schemac/lint/lint_inputs.h"
#include "schemac/sources/scan.h"

namespace schemac::schema::test {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// Each diagnostic as "file:line:col severity rule: message".
std::vector<std::string> lint(std::vector<std::pair<std::string, std::string>> files) {
  std::vector<sources::ScannedFile> scanned;
  for (auto& [path, text] : files) {
    scanned.push_back({path, sources::scan_source(text, *sources::language_for_path(path))});
  }
  std::vector<std::string> out;
  for (const diagnostics::Diagnostic& d : lint::lint_registration_code(scanned, {}, lint::LintOptions{})) {
    out.push_back(d.location.file + ":" + std::to_string(d.location.line) + ":" +
                  std::to_string(d.location.column) + " " + std::string(diagnostics::severity_name(d.severity)) + " " +
                  d.rule + ": " + d.message);
  }
  return out;
}

TEST(RegistrationRules, MutationMistakesAreWarnedAtTheArgument) {
  EXPECT_THAT(lint({{"ops.cpp",
                     "TORCH_LIBRARY(myops, m) {\n"
                     "  m.def(\"scale.out(Tensor self, float factor, *, Tensor out) -> Tensor\");\n"
                     "  m.def(\"scale_(Tensor self, float factor) -> Tensor\");\n"
                     "  m.def(\"good_(Tensor(a!) self) -> Tensor(a!)\");\n"
                     "}\n"}}),
              ElementsAre(HasSubstr("ops.cpp:2:50 warning out-annotation: keyword-only argument 'out'"),
                          HasSubstr("ops.cpp:3:17 warning inplace-self: in-place function 'scale_'")));
  EXPECT_THAT(lint({{"ops.py",
                     "lib = torch.library.Library('p', 'DEF')\n"
                     "lib.define('f(Tensor x) -> Tensor(a!)')\n"}}),
              // mutable-return is torchgen's rule (in-tree only); what matters out of tree is
              // that the returned set belongs to no argument.
              ElementsAre(HasSubstr("ops.py:2:34 warning alias-unknown-set")));
}

TEST(RegistrationRules, InferredSchemasGetTheRulesToo) {
  EXPECT_THAT(lint({{"ops.py",
                     "import torch\n@torch.library.custom_op('p::add_', mutates_args=())\n"
                     "def add_(x: torch.Tensor) -> torch.Tensor: ...\n"}}),
              ElementsAre(HasSubstr("ops.py:2:27 warning inplace-self")));
}

}  // namespace
}  // namespace schemac::schema::test
