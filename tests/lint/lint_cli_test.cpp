// `schemac lint` end to end: the real binary on files in a temporary folder, with exact output
// and exit codes.

#include <cstdlib>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "schemac/lint/lint_rules.h"
#include "test_support.h"

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

TEST_F(LintCli, ErrorsGoToStderrWithSourceCaretNoteAndCountThenExit1) {
  file("ops.yaml", kBad);
  ToolRun run = schemac("lint ops.yaml");
  EXPECT_EQ(run.status, 1);
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(run.err,
            "ops.yaml:2:3: error: unknown field 'dispach' [unknown-field]\n"
            "    dispach:\n"
            "    ^~~~~~~\n"
            "note: did you mean 'dispatch'?\n"
            "ops.yaml:2:3: note: fix: replace with 'dispatch'\n"
            "1 error, 0 warnings\n"
            "  unknown-field  1 error\n");
}

TEST_F(LintCli, CleanFileIsSilentAndExits0) {
  file("ops.yaml", "- func: relu(Tensor self) -> Tensor\n  dispatch:\n    CPU: relu_cpu\n");
  ToolRun run = schemac("lint ops.yaml");
  EXPECT_EQ(run.status, 0);
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(run.err, "");
}

TEST_F(LintCli, WarningsExit0UnlessWerror) {
  file("ops.yaml", "- func: clamp(Tensor self, Scalar? lambda=None) -> Tensor\n");
  ToolRun run = schemac("lint ops.yaml");
  EXPECT_EQ(run.status, 0);
  EXPECT_NE(run.err.find("warning: argument name 'lambda' is a Python keyword"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("0 errors, 1 warning\n"), std::string::npos) << run.err;
  EXPECT_EQ(schemac("lint --werror ops.yaml").status, 1);
}

TEST_F(LintCli, EveryFileIsCheckedInOneRun) {
  file("a.yaml", kBad);
  file("b.yaml", "- func: relu(Tensor self -> Tensor\n");
  ToolRun run = schemac("lint a.yaml b.yaml");
  EXPECT_EQ(run.status, 1);
  EXPECT_NE(run.err.find("a.yaml:2:3: error"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("b.yaml:1:"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("2 errors, 0 warnings\n"), std::string::npos) << run.err;
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
  EXPECT_EQ(no_tags.err, "schemac lint: error: cannot read tags file 'missing_tags.yaml': no such file\n");
  fs::create_directories(dir_ / "folder");
  EXPECT_EQ(schemac("lint folder").status, 2);
}

TEST_F(LintCli, JsonGoesToStdout) {
  file("ops.yaml", kBad);
  ToolRun run = schemac("lint --format json ops.yaml");
  EXPECT_EQ(run.status, 1);
  EXPECT_EQ(run.err, "");
  EXPECT_EQ(run.out,
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
  for (const RuleInfo& rule : lint_rule_catalog()) {
    EXPECT_NE(run.out.find("{\"id\":\"" + std::string(rule.id) + "\""), std::string::npos) << rule.id;
  }
}

TEST_F(LintCli, ListRulesPrintsEveryIdSeverityAndDescription) {
  ToolRun run = schemac("lint --list-rules");
  EXPECT_EQ(run.status, 0);
  for (const RuleInfo& rule : lint_rule_catalog()) {
    EXPECT_NE(run.out.find(std::string(rule.id) + " "), std::string::npos) << rule.id;
    EXPECT_NE(run.out.find(std::string(rule.description) + "\n"), std::string::npos) << rule.id;
  }
  EXPECT_NE(run.out.find("out-name"), std::string::npos);
}

TEST_F(LintCli, TagsComeFromTagsYamlBesideTheInputOrFromTagsFlag) {
  file("ops.yaml", "- func: relu(Tensor self) -> Tensor\n  tags: pointwise\n");
  EXPECT_EQ(schemac("lint ops.yaml").status, 0);  // no tags.yaml: tags unchecked
  file("tags.yaml", "- tag: core\n  desc: x\n");
  ToolRun beside = schemac("lint ops.yaml");
  EXPECT_EQ(beside.status, 1);
  EXPECT_NE(beside.err.find("ops.yaml:2:9: error: unknown tag 'pointwise' [unknown-tag]"), std::string::npos)
      << beside.err;
  file("other_tags.yaml", "- tag: pointwise\n  desc: x\n");
  EXPECT_EQ(schemac("lint --tags other_tags.yaml ops.yaml").status, 0);
}

TEST_F(LintCli, ColourOnATerminalOnlyAndNeverWithNoColor) {
  if (std::system("command -v script >/dev/null 2>&1") != 0) GTEST_SKIP() << "no 'script' to make a terminal";
  file("ops.yaml", kBad);
  // script(1) gives the command a terminal; its own output is the terminal's.
  ToolRun tty = shell("script -qec \"env -u NO_COLOR '" SCHEMAC_BINARY "' lint ops.yaml\" /dev/null");
  EXPECT_NE(tty.out.find("\033["), std::string::npos) << tty.out;
  ToolRun no_color = shell("script -qec \"env NO_COLOR=1 '" SCHEMAC_BINARY "' lint ops.yaml\" /dev/null");
  EXPECT_EQ(no_color.out.find("\033["), std::string::npos) << no_color.out;
  EXPECT_NE(no_color.out.find("unknown field"), std::string::npos) << no_color.out;
  ToolRun piped = schemac("lint ops.yaml", "env -u NO_COLOR");
  EXPECT_EQ(piped.err.find("\033["), std::string::npos);
}

TEST_F(LintCli, CorpusHasNoErrorsAndFailsOnlyWithWerror) {
  std::string corpus = std::string(SCHEMAC_CORPUS_DIR) + "/native_functions.yaml";
  ToolRun run = schemac("lint '" + corpus + "'");
  EXPECT_EQ(run.status, 0);
  EXPECT_NE(run.err.find("0 errors, 6 warnings\n"), std::string::npos) << run.err;
  EXPECT_TRUE(run.err.ends_with("  python-keyword-argument  3 warnings\n"
                                "  out-name                 2 warnings\n"
                                "  nondeterministic-seeded  1 warning\n")) << run.err;
  EXPECT_EQ(schemac("lint --werror '" + corpus + "'").status, 1);
}

}  // namespace
}  // namespace schemac::schema
