// Small files that torchgen accepts (tests/lint/torchgen/accept/) or rejects (.../reject/):
// lint with --torch-version 1.13 gives no error for the first and at least one error for the
// second. The verdicts were taken from torchgen 1.13's parse_native_yaml and grouping
// (tests/lint/torchgen/compare.py, the ctest torchgen_agreement, runs it again where a Python has
// torchgen), with the tags of tests/lint/torchgen/tags.yaml.
#include <algorithm>
#include <filesystem>

#include <gtest/gtest.h>

#include "schemac/lint/file_kinds.h"
#include "schemac/lint/lint_rules.h"
#include "test_support.h"

namespace schemac::schema {
namespace {

namespace fs = std::filesystem;

const std::string kDir = std::string(SCHEMAC_LINT_TEST_DIR) + "/torchgen";

std::vector<std::string> cases(const std::string& verdict) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(kDir + "/" + verdict))
    if (entry.path().extension() == ".yaml") names.push_back(verdict + "/" + entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<std::string> all_cases() {
  std::vector<std::string> names = cases("accept");
  for (std::string& n : cases("reject")) names.push_back(std::move(n));
  return names;
}

class TorchgenVerdict : public ::testing::TestWithParam<std::string> {};

TEST_P(TorchgenVerdict, LintAgreesWithTorchgen) {
  static const lint::TagsLoad tags = lint::load_tags("tags.yaml", lint_test::read_file(kDir + "/tags.yaml"));
  const std::string& name = GetParam();
  const std::string text = lint_test::read_file(kDir + "/" + name);
  lint::LintOptions lint_options{tags.tags};
  lint_options.torch_version = torch_releases::TorchVersion{1, 13};
  lint::FileLintOptions options{lint_options, std::nullopt, nullptr};
  const std::vector<diagnostics::Diagnostic> diagnostics = lint::lint_file(name, text, options).diagnostics;
  const bool error = std::any_of(diagnostics.begin(), diagnostics.end(),
                                 [](const diagnostics::Diagnostic& d) { return d.severity == diagnostics::Severity::error; });
  diagnostics::SourceFiles sources;
  sources.add(name, text);
  EXPECT_EQ(error, name.starts_with("reject/")) << diagnostics::render_text(diagnostics, sources);
}

INSTANTIATE_TEST_SUITE_P(Cases, TorchgenVerdict, ::testing::ValuesIn(all_cases()), [](const auto& info) {
  std::string id = info.param.substr(0, info.param.size() - 5);
  std::replace_if(id.begin(), id.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }, '_');
  return id;
});

TEST(TorchgenVerdict, HasCasesOfBothVerdicts) {
  EXPECT_GE(cases("accept").size(), 40u);
  EXPECT_GE(cases("reject").size(), 40u);
}

}  // namespace
}  // namespace schemac::schema
