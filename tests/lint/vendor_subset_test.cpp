// A vendor's subset of PyTorch's operators (out-of-tree backends such as torch-rbln declare their
// out= functions without the functional variants, with PrivateUse1 kernels, and add them to
// torchgen's OUT_OPS_THAT_DONT_GET_GROUPED_PROPERLY): the group rules are warnings there, decided
// once (rules::decide), and the note that says so comes only with a warning.
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "schemac/lint/lint_rules.h"
#include "schemac/rules/rules.h"

namespace schemac::lint {
namespace {

using diagnostics::Diagnostic, diagnostics::Severity;

constexpr std::string_view kNote = "so this is a warning here";

// `alone` out= functions with no functional variant, and `grouped` functional + out= pairs, in
// the 2.8-era shape: PrivateUse1 kernels, no namespace.
std::string subset_file(int alone, int grouped) {
  std::string text;
  for (int i = 0; i < alone; ++i) {
    text += fmt::format(
        "- func: vendor_op{0}.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)\n"
        "  dispatch:\n"
        "    PrivateUse1: vendor_op{0}_out\n",
        i);
  }
  for (int i = 0; i < grouped; ++i) {
    text += fmt::format(
        "- func: paired{0}(Tensor self) -> Tensor\n"
        "  structured_delegate: paired{0}.out\n"
        "- func: paired{0}.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n"
        "  structured: True\n"
        "  dispatch:\n"
        "    CPU: paired{0}_out\n",
        i);
  }
  return text;
}

struct Found {
  int errors = 0, warnings = 0, notes_on_errors = 0, notes_on_warnings = 0;
};

Found group_out_alone(const std::vector<Diagnostic>& diagnostics) {
  Found found;
  for (const Diagnostic& d : diagnostics) {
    if (d.rule != rules::group_out_alone) continue;
    bool noted = false;
    for (const diagnostics::Note& n : d.notes) noted = noted || n.message.ends_with(kNote);
    if (d.severity == Severity::error) {
      ++found.errors;
      found.notes_on_errors += noted;
    } else {
      ++found.warnings;
      found.notes_on_warnings += noted;
    }
  }
  return found;
}

LintOptions release_2_8() {
  LintOptions options;
  options.torch_version = torch_releases::TorchVersion{2, 8};
  return options;
}

TEST(VendorSubset, GroupOutAloneIsAWarningWithItsNote) {
  const std::vector<Diagnostic> diagnostics =
      lint_native_functions("subset.yaml", subset_file(35, 2), release_2_8());
  const Found found = group_out_alone(diagnostics);
  EXPECT_EQ(found.errors, 0);
  EXPECT_EQ(found.warnings, 35);
  EXPECT_EQ(found.notes_on_warnings, 35);
  // The same on the newest release.
  EXPECT_EQ(group_out_alone(lint_native_functions("subset.yaml", subset_file(35, 2), {})).errors,
            0);
}

TEST(VendorSubset, AFileThatIsNoSubsetKeepsTheErrorAndNoNote) {
  const Found found =
      group_out_alone(lint_native_functions("ops.yaml", subset_file(2, 4), release_2_8()));
  EXPECT_EQ(found.errors, 2);
  EXPECT_EQ(found.warnings, 0);
  EXPECT_EQ(found.notes_on_errors, 0);
}

TEST(VendorSubset, BeforeTheRuleExistedNothingIsReported) {
  LintOptions options;
  options.torch_version = torch_releases::TorchVersion{1, 12};
  const Found found =
      group_out_alone(lint_native_functions("subset.yaml", subset_file(6, 1), options));
  EXPECT_EQ(found.errors + found.warnings, 0);
}

// A .schemac.yaml that makes the rule an error wins, and the note does not claim otherwise.
TEST(VendorSubset, AConfiguredErrorWinsWithoutTheNote) {
  LintOptions options = release_2_8();
  options.configured_severity[std::string(rules::group_out_alone.name())] = Severity::error;
  const Found found =
      group_out_alone(lint_native_functions("subset.yaml", subset_file(6, 1), options));
  EXPECT_EQ(found.errors, 6);
  EXPECT_EQ(found.notes_on_errors, 0);
}

}  // namespace
}  // namespace schemac::lint
