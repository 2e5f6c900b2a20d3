// `schemac compat` end to end: the real binary on files in a temporary folder, with exact output
// and exit codes.

#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "../compat/compat_test_support.h"

namespace schemac::schema {
namespace {

namespace fs = std::filesystem;

using test::ToolRun;

class CompatCli : public test::ToolDirTest {
 protected:
  CompatCli() : ToolDirTest("schemac_compat_cli_") {}

  // Runs `schemac ARGS` inside the temporary folder, capturing stdout and stderr apart.
  ToolRun schemac(const std::string& args) {
    return shell("NO_COLOR=1 '" SCHEMAC_BINARY "' " + args);
  }
};

const char* kOld =
    "- func: add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor\n"
    "  dispatch:\n"
    "    CPU, CUDA: add\n";
const char* kNew =
    "- func: add.Tensor(Tensor self, Tensor rhs, *, Scalar alpha=1) -> Tensor\n"
    "  dispatch:\n"
    "    CPU: add\n";

TEST_F(CompatCli, BreakingChangesGoToStdoutWithSourceNotesAndCountThenExit1) {
  file("old.yaml", kOld);
  file("new.yaml", kNew);
  ToolRun run = schemac("compat old.yaml new.yaml");
  EXPECT_EQ(run.status, 1);
  EXPECT_EQ(run.err, "");
  EXPECT_EQ(run.out,
            "new.yaml:1:33: error: argument 'other' of 'add.Tensor' was renamed to 'rhs' "
            "[renamed-argument]\n"
            "  - func: add.Tensor(Tensor self, Tensor rhs, *, Scalar alpha=1) -> Tensor\n"
            "                                  ^~~~~~~~~~\n"
            "old.yaml:1:33: note: OLD declares 'Tensor other' here\n"
            "  - func: add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor\n"
            "                                  ^~~~~~~~~~~~\n"
            "new.yaml:2:3: error: 'add.Tensor' no longer has a kernel for backend 'CUDA' "
            "[removed-backend]\n"
            "    dispatch:\n"
            "    ^~~~~~~~\n"
            "old.yaml:3:10: note: OLD registers 'add' for CUDA here\n"
            "      CPU, CUDA: add\n"
            "           ^~~~\n"
            "2 errors, 0 warnings\n");
}

TEST_F(CompatCli, CompatibleFilesAreSilentAndExit0) {
  file("old.yaml", kOld);
  file("new.yaml", std::string(kOld) + "- func: sub(Tensor self, Tensor other) -> Tensor\n");
  ToolRun run = schemac("compat old.yaml new.yaml");
  EXPECT_EQ(run.status, 0);
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(run.err, "");
}

TEST_F(CompatCli, AllowListAcceptsFindingsAndSaysHowMany) {
  file("old.yaml", kOld);
  file("new.yaml", kNew);
  file("allow.yaml",
       "- operator: add.Tensor\n  reason: CUDA support moves to a plugin\n  expires: 2026-06-30\n");
  ToolRun run = schemac("compat old.yaml new.yaml --allow allow.yaml --today 2026-06-30");
  EXPECT_EQ(run.status, 0);
  EXPECT_EQ(run.out, "2 breaking changes accepted by the allow-list 'allow.yaml'\n");
}

TEST_F(CompatCli, ExpiredAllowEntryExits1) {
  file("old.yaml", kOld);
  file("new.yaml", kNew);
  file("allow.yaml",
       "- operator: add.Tensor\n  reason: CUDA support moves to a plugin\n  expires: 2026-06-30\n");
  ToolRun run = schemac("compat old.yaml new.yaml --allow allow.yaml --today 2026-07-01");
  EXPECT_EQ(run.status, 1);
  EXPECT_NE(run.out.find(
                "allow.yaml:3:12: error: allow-list entry for 'add.Tensor' expired on 2026-06-30 "
                "(today is 2026-07-01) [allow-expired]\n"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("[renamed-argument]"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("3 errors, 0 warnings\n"), std::string::npos) << run.out;
}

TEST_F(CompatCli, UnusedAllowEntryWarnsButExits0) {
  file("old.yaml", kOld);
  file("allow.yaml", "- operator: mul.Tensor\n  reason: stale\n");
  ToolRun run = schemac("compat old.yaml old.yaml --allow allow.yaml");
  EXPECT_EQ(run.status, 0);
  EXPECT_EQ(run.out,
            "allow.yaml:1:3: warning: allow-list entry for 'mul.Tensor' matches no finding "
            "[allow-unused]\n"
            "  - operator: mul.Tensor\n"
            "    ^\n"
            "0 errors, 1 warning\n");
}

TEST_F(CompatCli, JsonGoesToStdout) {
  file("old.yaml", kOld);
  file("new.yaml", kNew);
  ToolRun run = schemac("compat --format json old.yaml new.yaml");
  EXPECT_EQ(run.status, 1);
  EXPECT_EQ(run.err, "");
  EXPECT_EQ(run.out.front(), '[');
  EXPECT_NE(run.out.find("\"rule\":\"renamed-argument\""), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("\"file\":\"old.yaml\""), std::string::npos) << run.out;  // the note
}

TEST_F(CompatCli, SarifNamesCompatRules) {
  file("old.yaml", kOld);
  file("new.yaml", kNew);
  ToolRun run = schemac("compat --format sarif old.yaml new.yaml");
  EXPECT_EQ(run.status, 1);
  EXPECT_NE(run.out.find("\"version\": \"2.1.0\""), std::string::npos) << run.out.substr(0, 200);
  EXPECT_NE(run.out.find("\"ruleId\":\"removed-backend\""), std::string::npos);
  EXPECT_NE(run.out.find("\"id\":\"renamed-overload\""), std::string::npos);
}

TEST_F(CompatCli, BadInputGetsLintsLocatedErrorAndExits1) {
  file("old.yaml", kOld);
  file("new.yaml", "- func: add.Tensor(Tensor self, Tensor other -> Tensor\n");
  ToolRun run = schemac("compat old.yaml new.yaml");
  EXPECT_EQ(run.status, 1);
  EXPECT_EQ(run.out.rfind("new.yaml:1:", 0), 0u) << run.out;
  EXPECT_NE(run.out.find("[schema-syntax]"), std::string::npos) << run.out;
}

// A .schemac.yaml decides compat's findings as it decides lint's: ignore, select, severity.
TEST_F(CompatCli, ConfigIgnoreSelectAndSeverityDecideCompatFindings) {
  file("old.yaml", kOld);
  file("new.yaml", kNew);
  file(".schemac.yaml", "ignore: [removed-backend]\n");
  ToolRun ignored = schemac("compat old.yaml new.yaml");
  EXPECT_EQ(ignored.status, 1);
  EXPECT_EQ(ignored.err, "");
  EXPECT_NE(ignored.out.find("[renamed-argument]"), std::string::npos) << ignored.out;
  EXPECT_EQ(ignored.out.find("[removed-backend]"), std::string::npos) << ignored.out;
  EXPECT_NE(ignored.out.find("1 error, 0 warnings\n"), std::string::npos) << ignored.out;

  file(".schemac.yaml", "select: [removed-backend]\n");
  ToolRun selected = schemac("compat old.yaml new.yaml");
  EXPECT_EQ(selected.status, 1);
  EXPECT_EQ(selected.out.find("[renamed-argument]"), std::string::npos) << selected.out;
  EXPECT_NE(selected.out.find("[removed-backend]"), std::string::npos) << selected.out;

  file(".schemac.yaml", "ignore: [removed-backend]\nseverity:\n  renamed-argument: warning\n");
  ToolRun lowered = schemac("compat old.yaml new.yaml");
  EXPECT_EQ(lowered.status, 0) << lowered.out;
  EXPECT_EQ(lowered.out.rfind("new.yaml:1:33: warning: argument 'other'", 0), 0u) << lowered.out;

  // A config that cannot be used is said, and stops compat with exit 2, as it stops lint.
  file(".schemac.yaml", "ignore: [removed-backnd]\n");
  ToolRun bad = schemac("compat old.yaml new.yaml");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.out.find("unknown rule 'removed-backnd' [config]"), std::string::npos) << bad.out;
  EXPECT_EQ(bad.out.find("[renamed-argument]"), std::string::npos) << bad.out;
  EXPECT_EQ(schemac("lint new.yaml").status, 2);
}

// Where lint and compat see the same file and config, they report the same finding the same way.
TEST_F(CompatCli, LintAndCompatAgreeOnAConfigBothRead) {
  file("old.yaml", kOld);
  file("new.yaml", "- func: add.Tensor(Tensor self, Tensor other -> Tensor\n");
  for (const char* config : {"severity:\n  schema-syntax: warning\n", "ignore: [schema-syntax]\n",
                             "per-path:\n  \"new.yaml\": [schema-syntax]\n"}) {
    file(".schemac.yaml", config);
    ToolRun lint = schemac("lint new.yaml");
    ToolRun compat = schemac("compat old.yaml new.yaml");
    const std::string lint_first = lint.out.substr(0, lint.out.find('\n'));
    const std::string compat_first = compat.out.substr(0, compat.out.find('\n'));
    EXPECT_EQ(compat_first.find("[schema-syntax]") != std::string::npos,
              lint_first.find("[schema-syntax]") != std::string::npos)
        << config << "lint:\n"
        << lint.out << "compat:\n"
        << compat.out;
    if (lint_first.find("[schema-syntax]") != std::string::npos) {
      EXPECT_EQ(compat_first, lint_first);
    }
    EXPECT_EQ(compat.status, lint.status) << config << lint.out << compat.out;
  }
}

TEST_F(CompatCli, UsageAndIoErrorsExit2) {
  file("old.yaml", kOld);
  EXPECT_EQ(schemac("compat old.yaml missing.yaml").status, 2);
  EXPECT_EQ(schemac("compat old.yaml missing.yaml").err,
            "schemac compat: error: cannot read 'missing.yaml': no such file\n");
  EXPECT_EQ(schemac("compat old.yaml").status, 2);
  EXPECT_EQ(schemac("compat old.yaml old.yaml --allow nope.yaml").status, 2);
  EXPECT_EQ(schemac("compat old.yaml old.yaml --format xml").status, 2);
  ToolRun bad_date = schemac("compat old.yaml old.yaml --today 2026-02-30");
  EXPECT_EQ(bad_date.status, 2);
  EXPECT_NE(bad_date.err.find("expected a date as YYYY-MM-DD, got '2026-02-30'"), std::string::npos)
      << bad_date.err;
}

TEST_F(CompatCli, HelpShowsExamplesAndExitCodes) {
  ToolRun run = schemac("compat --help");
  EXPECT_EQ(run.status, 0);
  EXPECT_NE(run.out.find("schemac compat old/native_functions.yaml native_functions.yaml"),
            std::string::npos);
  EXPECT_NE(run.out.find("Exit codes: 0 compatible"), std::string::npos);
  EXPECT_NE(run.out.find("--allow"), std::string::npos);
}

TEST_F(CompatCli, ListRulesPrintsTheCatalogue) {
  ToolRun run = schemac("compat --list-rules");
  EXPECT_EQ(run.status, 0);
  EXPECT_NE(run.out.find("renamed-argument"), std::string::npos);
  size_t unused = run.out.find("allow-unused ");
  ASSERT_NE(unused, std::string::npos) << run.out;
  EXPECT_EQ(run.out.substr(unused, run.out.find('\n', unused) - unused).find("warning"), 24u)
      << run.out;
}

TEST_F(CompatCli, RealCorpusAgainstItselfIsCompatible) {
  ToolRun run = schemac("compat '" SCHEMAC_CORPUS_DIR "/native_functions.yaml' '" SCHEMAC_CORPUS_DIR
                        "/native_functions.yaml'");
  EXPECT_EQ(run.status, 0);
  EXPECT_EQ(run.err, "");
}

TEST_F(CompatCli, RegistrationCodeIsComparedOperatorByOperator) {
  // OLD in C++ (a TORCH_LIBRARY block with a CUDA kernel), NEW in Python (custom_op's inferred
  // schema): a removed default and a removed operator, each at its schema string.
  file("old.cpp",
       "TORCH_LIBRARY(myops, m) {\n"
       "  m.def(\"scale(Tensor x, float factor=2.0) -> Tensor\");\n"
       "  m.def(\"gone(Tensor x) -> Tensor\");\n"
       "}\n"
       "TORCH_LIBRARY_IMPL(myops, CUDA, m) { m.impl(\"scale\", &scale_cuda); }\n");
  file("new.py",
       "import torch\n"
       "@torch.library.custom_op(\"myops::scale\", mutates_args=())\n"
       "def scale(x: torch.Tensor, factor: float) -> torch.Tensor: ...\n");
  ToolRun run = schemac("compat old.cpp new.py");
  EXPECT_EQ(run.status, 1);
  EXPECT_NE(run.out.find("new.py:3:28: error: argument 'factor' of 'myops::scale' lost its default "
                         "'2.0' [removed-default]"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("old.cpp:2:32: note: OLD declares 'float factor=2.0' here"),
            std::string::npos);
  EXPECT_NE(
      run.out.find("old.cpp:3:10: error: operator 'myops::gone' was removed [removed-operator]"),
      std::string::npos);
  // A mix with YAML: the same operators written as YAML compare clean against the C++.
  file("same.yaml",
       "- func: myops::scale(Tensor x, float factor=2.0) -> Tensor\n  dispatch:\n    CUDA: "
       "scale_cuda\n"
       "- func: myops::gone(Tensor x) -> Tensor\n");
  ToolRun mixed = schemac("compat old.cpp same.yaml");
  EXPECT_EQ(mixed.status, 0) << mixed.err;
}

TEST_F(CompatCli, RegistrationCodeWithYamlsQuality) {
  // A type typo in NEW is that error at its place, not a removal; a misspelt key is reported at
  // the key with a fix-it for exactly its bytes; an argument renamed in a schema written over
  // several literals is found on its own line.
  file("old.cpp",
       "TORCH_LIBRARY(myops, m) {\n"
       "  m.def(\"gelu(Tensor x) -> Tensor\");\n"
       "  m.def(\n"
       "      \"scale(Tensor x,\"\n"
       "      \"      float factor) -> Tensor\");\n"
       "}\n");
  file("bind.cpp",
       "TORCH_LIBRARY(myops, m) {\n"
       "  m.def(\"gelu(Tensr x) -> Tensor\");\n"
       "  m.def(\n"
       "      \"scale(Tensor x,\"\n"
       "      \"      float ratio) -> Tensor\");\n"
       "}\n"
       "TORCH_LIBRARY_IMPL(myops, CPU, m) {\n"
       "  m.impl(\"scale\", torch::kCUDAA, &scale_cuda);\n"
       "}\n");
  ToolRun run = schemac("compat old.cpp bind.cpp");
  EXPECT_EQ(run.status, 1);
  EXPECT_NE(run.out.find("bind.cpp:2:15: error: unknown type 'Tensr'"), std::string::npos)
      << run.out;
  EXPECT_EQ(run.out.find("removed-operator"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("bind.cpp:5:20: error: argument 'factor' of 'myops::scale' was renamed to "
                         "'ratio' [renamed-argument]"),
            std::string::npos);
  EXPECT_NE(run.out.find("old.cpp:5:20: note: OLD declares 'float factor' here"),
            std::string::npos);
  EXPECT_NE(run.out.find("bind.cpp:8:26: error: 'kCUDAA' is not a device type constant"),
            std::string::npos);
  EXPECT_NE(run.out.find("3 errors"), std::string::npos);
  ToolRun json = schemac("compat old.cpp bind.cpp --format json");
  EXPECT_NE(json.out.find("\"replacement\":\"kCUDA\""), std::string::npos) << json.out;
  EXPECT_EQ(json.out.find("\"replacement\":\"CUDA\""), std::string::npos);
  // Read through a pipe, as `compat <(git show HEAD:bind.cpp) bind.cpp` reads it: by content.
  ToolRun piped =
      shell("NO_COLOR=1 bash -c \"'" SCHEMAC_BINARY "' compat <(cat old.cpp) bind.cpp\"");
  EXPECT_EQ(piped.status, 1);
  EXPECT_NE(piped.out.find("note: OLD declares 'float factor' here"), std::string::npos)
      << piped.out;
  EXPECT_EQ(piped.out.find("top-level-not-list"), std::string::npos);
  // --language overrides both names and contents.
  ToolRun forced = schemac("compat --language yaml old.cpp bind.cpp");
  EXPECT_NE(forced.out.find("top-level-not-list"), std::string::npos) << forced.out;
}

}  // namespace
}  // namespace schemac::schema
