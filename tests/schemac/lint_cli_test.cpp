// `schemac lint` end to end: the real binary on files in a temporary folder, with exact output
// and exit codes.

#include <cstdlib>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "../lint/test_support.h"
#include "schemac/lint/lint_rules.h"

namespace schemac::schema {
namespace {

namespace fs = std::filesystem;
using lint_test::read_file;
using lint_test::write_file;

using test::ToolRun;

class LintCli : public test::ToolDirTest {
 protected:
  LintCli() : ToolDirTest("schemac_lint_cli_") {}

  // Runs `schemac ARGS` inside the temporary folder, capturing stdout and stderr apart.
  ToolRun schemac(const std::string& args, const std::string& env = "") {
    return shell(env + " '" SCHEMAC_BINARY "' " + args);
  }
};

const char* kBad =
    "- func: relu(Tensor self) -> Tensor\n"
    "  dispach:\n"
    "    CPU: relu_cpu\n";

TEST_F(LintCli, ErrorsGoToStdoutWithSourceCaretNoteAndCountThenExit1) {
  file("ops.yaml", kBad);
  ToolRun run = schemac("lint ops.yaml");
  EXPECT_EQ(run.status, 1);
  EXPECT_EQ(run.err, "");
  EXPECT_EQ(run.out,
            "ops.yaml:2:3: error: unknown field 'dispach' [unknown-field]\n"
            "    dispach:\n"
            "    ^~~~~~~\n"
            "note: did you mean 'dispatch'?\n"
            "ops.yaml:2:3: note: fix: replace with 'dispatch'\n"
            "1 error, 0 warnings\n"
            "  unknown-field  1 error\n");
}

// A clean run prints nothing on stdout (scripts test it) and what it checked on stderr; --quiet
// leaves that out too.
TEST_F(LintCli, CleanFileSaysWhatItCheckedOnStderrAndExits0) {
  file("ops.yaml", "- func: relu(Tensor self) -> Tensor\n  dispatch:\n    CPU: relu_cpu\n");
  file("bind.cpp",
       "TORCH_LIBRARY(myops, m) {\n  m.def(\"a(Tensor x) -> Tensor\");\n"
       "  m.def(\"b(Tensor x) -> Tensor\");\n}\n");
  ToolRun run = schemac("lint ops.yaml");
  EXPECT_EQ(run.status, 0);
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(run.err, "checked 1 file, 1 schema: no problems\n");
  run = schemac("lint --format json ops.yaml bind.cpp");
  EXPECT_EQ(run.status, 0);
  EXPECT_EQ(run.out.rfind("[]", 0), 0u) << run.out;
  EXPECT_EQ(run.err,
            "checked 2 files, 3 schemas: no problems\n"
            "registration code: 1 file; schemas checked: 2 literal, 0 inferred, 0 helper, 0 legacy "
            "API; 0 name-only (inferred when the library loads)\n");
  run = schemac("lint -q ops.yaml");
  EXPECT_EQ(run.status, 0);
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(run.err, "");
}

TEST_F(LintCli, WarningsExit0UnlessWerror) {
  file("ops.yaml", "- func: clamp(Tensor self, Scalar? lambda=None) -> Tensor\n");
  ToolRun run = schemac("lint ops.yaml");
  EXPECT_EQ(run.status, 0);
  EXPECT_NE(run.out.find("warning: argument name 'lambda' is a Python keyword"), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("0 errors, 1 warning\n"), std::string::npos) << run.out;
  EXPECT_EQ(schemac("lint --werror ops.yaml").status, 1);
}

TEST_F(LintCli, EveryFileIsCheckedInOneRun) {
  file("a.yaml", kBad);
  file("b.yaml", "- func: relu(Tensor self -> Tensor\n");
  ToolRun run = schemac("lint a.yaml b.yaml");
  EXPECT_EQ(run.status, 1);
  EXPECT_NE(run.out.find("a.yaml:2:3: error"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("b.yaml:1:"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("2 errors, 0 warnings\n"), std::string::npos) << run.out;
}

TEST_F(LintCli, UsageAndIoErrorsExit2) {
  file("ops.yaml", kBad);
  ToolRun missing = schemac("lint nope.yaml");
  EXPECT_EQ(missing.status, 2);
  EXPECT_EQ(missing.err, "schemac lint: error: cannot read 'nope.yaml': no such file\n");
  EXPECT_EQ(schemac("lint --format xml ops.yaml").status, 2);
  EXPECT_EQ(schemac("lint").status, 2);
  EXPECT_EQ(schemac("lint --no-such-flag ops.yaml").status, 2);
  ToolRun no_tags = schemac("lint --tags missing_tags.yaml ops.yaml");
  EXPECT_EQ(no_tags.status, 2);
  EXPECT_EQ(no_tags.err,
            "schemac lint: error: cannot read tags file 'missing_tags.yaml': no such file\n");
  // A folder is a search: finding nothing to lint there is a note, not an error (as for a
  // folder of CI workflows); docs/daily-use.md.
  fs::create_directories(dir_ / "folder");
  ToolRun empty = schemac("lint folder");
  EXPECT_EQ(empty.status, 0);
  EXPECT_EQ(empty.err, "schemac lint: note: nothing to lint in 'folder'\n");
}

TEST_F(LintCli, JsonGoesToStdout) {
  file("ops.yaml", kBad);
  ToolRun run = schemac("lint --format json ops.yaml");
  EXPECT_EQ(run.status, 1);
  EXPECT_EQ(run.err, "");
  EXPECT_EQ(
      run.out,
      "[\n  {\"file\":\"ops.yaml\",\"line\":2,\"column\":3,\"end\":{\"line\":2,\"column\":10},"
      "\"severity\":\"error\",\"rule\":\"unknown-field\",\"message\":\"unknown field 'dispach'\","
      "\"notes\":[{\"file\":\"\",\"line\":0,\"column\":0,\"end\":{\"line\":0,\"column\":0},"
      "\"message\":\"did you mean 'dispatch'?\"}],\"fix\":{\"file\":\"ops.yaml\",\"line\":2,"
      "\"column\":3,\"end\":{\"line\":2,\"column\":10},\"replacement\":\"dispatch\"}}\n]\n");
  file("good.yaml", "- func: relu(Tensor self) -> Tensor\n");
  EXPECT_EQ(schemac("lint --format json good.yaml").out, "[]\n");
}

TEST_F(LintCli, SarifGoesToStdoutWithTheRuleTable) {
  file("ops.yaml", kBad);
  ToolRun run = schemac("lint --format sarif ops.yaml");
  EXPECT_EQ(run.status, 1);
  EXPECT_EQ(run.err, "");
  EXPECT_NE(run.out.find("\"version\": \"2.1.0\""), std::string::npos);
  EXPECT_NE(run.out.find("\"ruleId\":\"unknown-field\""), std::string::npos);
  for (const diagnostics::RuleInfo& rule : lint::lint_rule_catalog()) {
    EXPECT_NE(run.out.find("{\"id\":\"" + std::string(rule.id) + "\""), std::string::npos)
        << rule.id;
  }
}

TEST_F(LintCli, ListRulesPrintsEveryIdSeverityAndDescription) {
  ToolRun run = schemac("lint --list-rules");
  EXPECT_EQ(run.status, 0);
  for (const diagnostics::RuleInfo& rule : lint::lint_rule_catalog()) {
    EXPECT_NE(run.out.find(std::string(rule.id) + " "), std::string::npos) << rule.id;
    EXPECT_NE(run.out.find(std::string(rule.description) + "\n"), std::string::npos) << rule.id;
  }
  EXPECT_NE(run.out.find("out-name"), std::string::npos);
}

TEST_F(LintCli, TagsComeFromTagsYamlBesideTheInputOrFromTagsFlag) {
  file("ops.yaml", "- func: relu(Tensor self) -> Tensor\n  tags: pointwise\n");
  EXPECT_EQ(schemac("lint ops.yaml").status, 0);  // no tags.yaml: the built-in tags have pointwise
  file("made_up.yaml", "- func: relu(Tensor self) -> Tensor\n  tags: made_up\n");
  ToolRun builtin = schemac("lint made_up.yaml");
  EXPECT_EQ(builtin.status, 1);
  EXPECT_NE(builtin.out.find("made_up.yaml:2:9: error: unknown tag 'made_up' [unknown-tag]"),
            std::string::npos)
      << builtin.out;
  file("tags.yaml", "- tag: core\n  desc: x\n");
  ToolRun beside = schemac("lint ops.yaml");
  EXPECT_EQ(beside.status, 1);
  EXPECT_NE(beside.out.find("ops.yaml:2:9: error: unknown tag 'pointwise' [unknown-tag]"),
            std::string::npos)
      << beside.out;
  file("other_tags.yaml", "- tag: pointwise\n  desc: x\n");
  EXPECT_EQ(schemac("lint --tags other_tags.yaml ops.yaml").status, 0);
}

TEST_F(LintCli, ColourOnATerminalOnlyAndNeverWithNoColor) {
  if (std::system("command -v script >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "no 'script' to make a terminal";
  file("ops.yaml", kBad);
  // script(1) gives the command a terminal; its own output is the terminal's.
  ToolRun tty =
      shell("script -qec \"env -u NO_COLOR '" SCHEMAC_BINARY "' lint ops.yaml\" /dev/null");
  EXPECT_NE(tty.out.find("\033["), std::string::npos) << tty.out;
  ToolRun no_color =
      shell("script -qec \"env NO_COLOR=1 '" SCHEMAC_BINARY "' lint ops.yaml\" /dev/null");
  EXPECT_EQ(no_color.out.find("\033["), std::string::npos) << no_color.out;
  EXPECT_NE(no_color.out.find("unknown field"), std::string::npos) << no_color.out;
  ToolRun piped = schemac("lint ops.yaml", "env -u NO_COLOR");
  EXPECT_EQ(piped.out.find("\033["), std::string::npos);
}

TEST_F(LintCli, CorpusHasNoErrorsAndFailsOnlyWithWerror) {
  std::string corpus = std::string(SCHEMAC_CORPUS_DIR) + "/native_functions.yaml";
  ToolRun run = schemac("lint '" + corpus + "'");
  EXPECT_EQ(run.status, 0);
  EXPECT_NE(run.out.find("0 errors, 6 warnings\n"), std::string::npos) << run.out;
  EXPECT_TRUE(
      run.out.ends_with("  python-keyword-argument  3 warnings\n"
                        "  out-name                 2 warnings\n"
                        "  nondeterministic-seeded  1 warning\n"))
      << run.out;
  EXPECT_EQ(schemac("lint --werror '" + corpus + "'").status, 1);
}

TEST_F(LintCli, ListTagsPrintsTheBuiltInTags) {
  ToolRun run = schemac("lint --list-tags");
  EXPECT_EQ(run.status, 0);
  EXPECT_NE(run.out.find("pointwise\n"), std::string::npos);
  EXPECT_NE(run.out.find("nondeterministic_seeded\n"), std::string::npos);
  EXPECT_NE(run.out.find("pt2_compliant_tag\n"), std::string::npos);
}

// A backend YAML (the shape pytorch/xla's xla_native_functions.yaml has) is recognised and checked
// against --native-functions; --kind forces a format.
TEST_F(LintCli, BackendYamlIsRecognisedAndCheckedAgainstNativeFunctions) {
  file("native.yaml", "- func: relu(Tensor self) -> Tensor\n  dispatch:\n    CPU: relu\n");
  file("backend.yaml", "backend: XLA\ncpp_namespace: torch_xla\nsupported:\n  - relu\n  - gelu\n");
  EXPECT_EQ(schemac("lint backend.yaml").status, 0);
  ToolRun run = schemac("lint --native-functions native.yaml backend.yaml");
  EXPECT_EQ(run.status, 1);
  EXPECT_NE(run.out.find(
                "backend.yaml:5:5: error: 'gelu' is not an operator of the native functions file "
                "[backend-unknown-op]"),
            std::string::npos)
      << run.out;
  ToolRun forced = schemac("lint --kind native backend.yaml");
  EXPECT_NE(forced.out.find("[top-level-not-list]"), std::string::npos) << forced.out;
}

TEST_F(LintCli, ExecutorchYamlIsRecognisedAndAnUnknownShapeIsOneError) {
  file("functions.yaml",
       "- op: add.out\n  kernels:\n    - arg_meta: null\n      kernel_name: "
       "torch::executor::add_out\n");
  EXPECT_EQ(schemac("lint functions.yaml").status, 0);
  file("other.yaml", "name: x\nversion: 1\n");
  ToolRun run = schemac("lint other.yaml");
  EXPECT_EQ(run.status, 1);
  EXPECT_NE(
      run.out.find("other.yaml:1:1: error: this is not an operator YAML format schemac knows"),
      std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("1 error, 0 warnings\n  unknown-format  1 error\n"), std::string::npos)
      << run.out;
}

// PyTorch 0.4 to 1.8 files: what they once had is named as retired.
TEST_F(LintCli, RetiredFieldsSayWhatReplacedThem) {
  file("old.yaml",
       "- func: relu(Tensor self) -> Tensor\n  use_c10_dispatcher: full\n  dispatch:\n    CPU: "
       "relu\n");
  ToolRun run = schemac("lint old.yaml");
  EXPECT_EQ(run.status, 1);
  EXPECT_NE(
      run.out.find("old.yaml:2:3: error: field 'use_c10_dispatcher' was retired in PyTorch 1.9"),
      std::string::npos)
      << run.out;
}

}  // namespace
}  // namespace schemac::schema
