// check_compat_files (compat_files.h): registration code compared through its YAML with the
// findings at the schema strings, and a config deciding the findings.
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "schemac/compat/compat_files.h"

namespace schemac::compat {
namespace {

constexpr const char* kOld =
    "TORCH_LIBRARY(myops, m) {\n  m.def(\"scale(Tensor self, float factor) -> Tensor\");\n}\n";
constexpr const char* kNew =
    "TORCH_LIBRARY(myops, m) {\n  m.def(\"scale(Tensor self, float f) -> Tensor\");\n}\n";

TEST(CompatFiles, RegistrationCodeFindingsPointIntoTheSchemaStrings) {
  std::string why;
  std::optional<CompatReport> report =
      check_compat_files({"old.cpp", kOld, sources::Language::cpp},
                         {"new.cpp", kNew, sources::Language::cpp}, std::nullopt, {}, why);
  ASSERT_TRUE(report) << why;
  ASSERT_EQ(report->diagnostics.size(), 1u);
  const diagnostics::Diagnostic& d = report->diagnostics[0];
  EXPECT_EQ(d.rule, "renamed-argument");
  EXPECT_EQ(d.location.file, "new.cpp");
  EXPECT_EQ(d.location.line, 2u);
  EXPECT_EQ(d.location.column, 35u);  // `f` in the literal
  ASSERT_EQ(d.notes.size(), 1u);
  EXPECT_EQ(d.notes[0].location.file, "old.cpp");
}

TEST(CompatFiles, AMalformedMacroIsSaid) {
  std::string why;
  CompatFilesOptions options;
  options.macros.defines = {"1BAD=2"};
  EXPECT_FALSE(check_compat_files({"old.cpp", kOld, sources::Language::cpp},
                                  {"new.cpp", kNew, sources::Language::cpp}, std::nullopt, options,
                                  why));
  EXPECT_NE(why.find("1BAD"), std::string::npos) << why;
}

TEST(CompatFiles, TheConfigDecidesTheFindings) {
  const std::filesystem::path config =
      std::filesystem::temp_directory_path() / "schemac_compat_files_test.yaml";
  std::ofstream(config) << "severity:\n  renamed-argument: warning\n";
  config::ConfigProvider configs(config.string(), engine::config_rules());
  CompatFilesOptions options;
  options.configs = &configs;
  std::string why;
  std::optional<CompatReport> report =
      check_compat_files({"old.cpp", kOld, sources::Language::cpp},
                         {"new.cpp", kNew, sources::Language::cpp}, std::nullopt, options, why);
  std::filesystem::remove(config);
  ASSERT_TRUE(report) << why;
  ASSERT_EQ(report->diagnostics.size(), 1u);
  EXPECT_EQ(report->diagnostics[0].severity, diagnostics::Severity::warning);
}

// --language decides; else the name's extension; else the content (`<(git show ...)`).
TEST(CompatFiles, TheLanguageOfAnInput) {
  EXPECT_EQ(input_language("", "ops.cpp", "- func: f() -> ()\n"), sources::Language::cpp);
  EXPECT_EQ(input_language("", "ops.yaml", kOld), std::nullopt);
  EXPECT_EQ(input_language("", "/dev/fd/63", kOld), sources::Language::cpp);
  EXPECT_EQ(input_language("python", "ops.cpp", kOld), sources::Language::python);
  EXPECT_EQ(input_language("yaml", "ops.cpp", kOld), std::nullopt);
}

TEST(CompatFiles, ADateProblemSaysWhatWasExpected) {
  EXPECT_EQ(date_problem("2026-06-30"), "");
  EXPECT_EQ(date_problem("2026-02-30"), "expected a date as YYYY-MM-DD, got '2026-02-30'");
  EXPECT_EQ(date_problem("June"), "expected a date as YYYY-MM-DD, got 'June'");
}

}  // namespace
}  // namespace schemac::compat
