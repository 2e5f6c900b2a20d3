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
  config::ConfigProvider configs(config.string());
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

// OLD through a pipe (`<(git show HEAD:bind.cpp)` is /dev/fd/63) is read with NEW's config: its
// defines: choose the #if branch, as they do for NEW.
TEST(CompatFiles, OldIsReadWithTheConfigOfNewsPlace) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / "schemac_compat_files_pipe_test";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / ".schemac.yaml") << "defines: {USE_NEW_API: 1}\n";
  const std::string code =
      "TORCH_LIBRARY(myops, m) {\n"
      "#if USE_NEW_API\n"
      "  m.def(\"scale(Tensor self) -> Tensor\");\n"
      "#else\n"
      "  m.def(\"scale_legacy(Tensor self) -> Tensor\");\n"
      "#endif\n"
      "}\n";
  config::ConfigProvider configs;
  CompatFilesOptions options;
  options.configs = &configs;
  std::string why;
  std::optional<CompatReport> report = check_compat_files(
      {"/dev/fd/63", code, sources::Language::cpp},
      {(dir / "bind.cpp").string(), code, sources::Language::cpp}, std::nullopt, options, why);
  std::filesystem::remove_all(dir);
  ASSERT_TRUE(report) << why;
  EXPECT_TRUE(report->diagnostics.empty()) << report->diagnostics[0].message;
}

// An operator whose only kernel (its m.impl) is gone lost that backend: registration code without
// an m.impl has no kernel, it is not CompositeImplicitAutograd.
TEST(CompatFiles, RemovingAnOperatorsOnlyKernelIsReported) {
  const std::string without =
      "TORCH_LIBRARY(myops, m) {\n  m.def(\"shift(Tensor x) -> Tensor\");\n}\n";
  const std::string with =
      without + "TORCH_LIBRARY_IMPL(myops, CPU, m) {\n  m.impl(\"shift\", shift_cpu);\n}\n";
  std::string why;
  std::optional<CompatReport> report =
      check_compat_files({"old.cpp", with, sources::Language::cpp},
                         {"new.cpp", without, sources::Language::cpp}, std::nullopt, {}, why);
  ASSERT_TRUE(report) << why;
  ASSERT_EQ(report->diagnostics.size(), 1u);
  EXPECT_EQ(report->diagnostics[0].rule, "removed-backend");
  EXPECT_NE(report->diagnostics[0].message.find("'CPU'"), std::string::npos);
  report = check_compat_files({"old.cpp", without, sources::Language::cpp},
                              {"new.cpp", without, sources::Language::cpp}, std::nullopt, {}, why);
  ASSERT_TRUE(report);
  EXPECT_TRUE(report->diagnostics.empty()) << "no kernel before, none after";
}

// A suppression comment where the finding is silences it; one naming a compat rule that silences
// nothing is reported, one naming lint's rule is lint's to judge.
TEST(CompatFiles, SuppressionCommentsApply) {
  const std::string silenced =
      "TORCH_LIBRARY(myops, m) {\n"
      "  m.def(\"scale(Tensor self, float f) -> Tensor\");  // schemac: ignore[renamed-argument]\n"
      "  m.def(\"other(Tensor self) -> Tensor\");  // schemac: ignore[removed-default, "
      "unknown-type]\n"
      "}\n";
  const std::string old_code = std::string(kOld).insert(
      std::string(kOld).find("}"), "  m.def(\"other(Tensor self) -> Tensor\");\n");
  std::string why;
  std::optional<CompatReport> report =
      check_compat_files({"old.cpp", old_code, sources::Language::cpp},
                         {"new.cpp", silenced, sources::Language::cpp}, std::nullopt, {}, why);
  ASSERT_TRUE(report) << why;
  ASSERT_EQ(report->diagnostics.size(), 1u);
  EXPECT_EQ(report->diagnostics[0].rule, "unused-suppression");
  EXPECT_EQ(report->diagnostics[0].location.line, 3u);
  EXPECT_NE(report->diagnostics[0].message.find("removed-default"), std::string::npos);
}

// An OLD operator that cannot be read is not compared, and says so as a warning of its own.
TEST(CompatFiles, AnUnreadableOldOperatorIsNotCompared) {
  const std::string old_code =
      "TORCH_LIBRARY(myops, m) {\n  m.def(\"scale(Tensorr self) -> Tensor\");\n}\n";
  std::string why;
  std::optional<CompatReport> report =
      check_compat_files({"old.cpp", old_code, sources::Language::cpp},
                         {"new.cpp", kNew, sources::Language::cpp}, std::nullopt, {}, why);
  ASSERT_TRUE(report) << why;
  ASSERT_EQ(report->diagnostics.size(), 1u);
  EXPECT_EQ(report->diagnostics[0].rule, "not-compared");
  EXPECT_EQ(report->diagnostics[0].severity, diagnostics::Severity::warning);
  EXPECT_NE(report->diagnostics[0].message.find("[unknown-type]"), std::string::npos);
}

// Registration code that defines no operator (OLD before the first one) is compatible with any
// NEW: a file without operators is no error.
TEST(CompatFiles, CodeWithoutOperatorsIsNoError) {
  const std::string none = "TORCH_LIBRARY(myops, m) {\n}\n";
  std::string why;
  std::optional<CompatReport> report =
      check_compat_files({"old.cpp", none, sources::Language::cpp},
                         {"new.cpp", kNew, sources::Language::cpp}, std::nullopt, {}, why);
  ASSERT_TRUE(report) << why;
  EXPECT_TRUE(report->diagnostics.empty()) << report->diagnostics[0].message;
  EXPECT_TRUE(report->compared);
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
