// `schemac lint` in the daily loop, end to end: --fix and --fix --diff on CRLF YAML with comments,
// suppression comments, .schemac.yaml found upward, --select/--ignore, --baseline, --max-errors,
// stdin, folders, duplicate inputs, SARIF's run facts, GitHub annotations, and the one CLI
// grammar of every subcommand (did-you-mean, help, usage errors before any output).
#include <filesystem>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_test_support.h"

namespace schemac::cli {
namespace {

using test::ToolRun;

// PyTorch 1.4's style: use_c10_dispatcher lines, a retired dispatch key and type, a mistyped key
// and tag, a non-canonical func, an out argument without its annotation; CRLF and comments.
constexpr const char* kOldStyle =
    "# my ops, in the style of PyTorch 1.4\r\n"
    "- func: my_add(Tensor self, Tensor other) -> Tensor  # the first one\r\n"
    "  use_c10_dispatcher: full\r\n"
    "  dispatch:\r\n"
    "    CPUU: my_add_cpu   # a typo\r\n"
    "    Math: my_add_math\r\n"
    "\r\n"
    "- func: \"my_mul(Tensor  self,Tensor other) -> Tensor\"\r\n"
    "  use_c10_dispatcher: full\r\n"
    "  tags: [pointwize]\r\n"
    "\r\n"
    "- func: my_sum.out(Tensor self, IntList dim, *, Tensor out) -> Tensor(a!)\r\n"
    "  dispatch:\r\n"
    "    CPU: my_sum_out\r\n";

constexpr const char* kOldStyleFixed =
    "# my ops, in the style of PyTorch 1.4\r\n"
    "- func: my_add(Tensor self, Tensor other) -> Tensor  # the first one\r\n"
    "  dispatch:\r\n"
    "    CPU: my_add_cpu   # a typo\r\n"
    "    CompositeImplicitAutograd: my_add_math\r\n"
    "\r\n"
    "- func: \"my_mul(Tensor self, Tensor other) -> Tensor\"\r\n"
    "  tags: [pointwise]\r\n"
    "\r\n"
    "- func: my_sum.out(Tensor self, int[] dim, *, Tensor(a!) out) -> Tensor(a!)\r\n"
    "  dispatch:\r\n"
    "    CPU: my_sum_out\r\n";

class DailyLoop : public test::ToolDirTest {
 protected:
  DailyLoop() : ToolDirTest("schemac_daily_loop_") {}
  ToolRun schemac(const std::string& args, const std::filesystem::path& cwd = {}) {
    return shell("'" SCHEMAC_EXE "' " + args, cwd);
  }
  std::string read(const std::string& name) { return test::read_file((dir_ / name).string()); }
};

TEST_F(DailyLoop, FixAppliesEveryFixKeepingEveryOtherByteAndASecondRunChangesNothing) {
  file("ops.yaml", kOldStyle);
  ToolRun fixed = schemac("lint --fix ops.yaml");
  EXPECT_EQ(read("ops.yaml"), kOldStyleFixed) << fixed.out << fixed.err;
  EXPECT_NE(fixed.err.find("schemac lint: fixed 8 problems"), std::string::npos) << fixed.err;
  ToolRun again = schemac("lint --fix ops.yaml");
  EXPECT_EQ(read("ops.yaml"), kOldStyleFixed);
  EXPECT_EQ(again.err, "");
  EXPECT_EQ(schemac("lint ops.yaml").out.find("retired-field"), std::string::npos);
}

TEST_F(DailyLoop, FixDiffPrintsAUnifiedDiffAndWritesNothing) {
  file("ops.yaml", kOldStyle);
  ToolRun diff = schemac("lint --fix --diff ops.yaml");
  EXPECT_EQ(diff.status, 1);
  EXPECT_EQ(read("ops.yaml"), kOldStyle);
  EXPECT_TRUE(diff.out.starts_with("--- a/ops.yaml\n+++ b/ops.yaml\n@@ -1,14 +1,12 @@\n")) << diff.out;
  EXPECT_NE(diff.out.find("\n-  use_c10_dispatcher: full\r\n"), std::string::npos);
  EXPECT_NE(diff.out.find("\n+    CPU: my_add_cpu   # a typo\r\n"), std::string::npos);
  EXPECT_EQ(diff.out.find("error:"), std::string::npos);
  file("clean.yaml", kOldStyleFixed);
  ToolRun clean = schemac("lint --fix --diff clean.yaml");
  EXPECT_EQ(clean.status, 0);
  EXPECT_EQ(clean.out, "");
}

TEST_F(DailyLoop, UnsafeFixesAreLeftOutAndSaidSo) {
  file("ops.yaml", "- func: f(Tensor self, TensorOptions options) -> Tensor\n");
  ToolRun run = schemac("lint --fix ops.yaml");
  EXPECT_EQ(read("ops.yaml"), "- func: f(Tensor self, TensorOptions options) -> Tensor\n");
  EXPECT_NE(run.err.find("ops.yaml:1:24: note: fix for [retired-field] left out: the replacement is more than a type"),
            std::string::npos)
      << run.err;
  EXPECT_EQ(run.status, 1);
}

TEST_F(DailyLoop, SuppressionsSilenceTheLineOrTheEntryAndUnusedOnesAreReported) {
  file("ops.yaml",
       "- func: a(Tensor self) -> Tensor  # schemac: ignore[unknown-field]\n"
       "  dispach: {CPU: a}\n"
       "- func: b(Tensor self) -> Tensor\n"
       "  dispach: {CPU: b}  # schemac: ignore[unknown-field, unknown-tag]\n");
  ToolRun run = schemac("lint ops.yaml");
  EXPECT_EQ(run.status, 0) << run.out;
  EXPECT_EQ(run.out,
            "ops.yaml:4:55: warning: 'schemac: ignore[unknown-tag]' silences nothing here [unused-suppression]\n"
            "    dispach: {CPU: b}  # schemac: ignore[unknown-field, unknown-tag]\n"
            "                                                        ^~~~~~~~~~~\n"
            "ops.yaml:4:53: note: fix: delete the text\n"
            "0 errors, 1 warning\n"
            "  unused-suppression  1 warning\n");
  file("ops.cpp",
       "TORCH_LIBRARY(myops, m) {\n"
       "  m.def(\"f(Tensor self) -> Tensor\");\n"
       "  m.def(\"f(Tensor self) -> Tensor\");  // schemac: ignore[duplicate-definition]\n"
       "}\n");
  EXPECT_EQ(schemac("lint ops.cpp").out, "");
}

TEST_F(DailyLoop, ConfigIsFoundUpwardAndTheCommandLineSelects) {
  std::filesystem::create_directories(dir_ / "proj/sub");
  file("proj/.schemac.yaml", "ignore: [unknown-field]\nseverity:\n  unknown-tag: warning\n");
  file("proj/sub/ops.yaml", "- func: a(Tensor self) -> Tensor\n  dispach: {CPU: a}\n  tags: [nope]\n");
  ToolRun run = schemac("lint proj/sub/ops.yaml");
  EXPECT_EQ(run.status, 0) << run.out;
  EXPECT_NE(run.out.find("warning: unknown tag 'nope'"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("unknown-field"), std::string::npos);
  ToolRun selected = schemac("lint --select unknown-field,unknown-tag --ignore unknown-tag proj/sub/ops.yaml");
  EXPECT_EQ(selected.out.find("unknown-tag"), std::string::npos) << selected.out;
  ToolRun shown = schemac("lint --show-config proj/sub/ops.yaml");
  EXPECT_EQ(shown.out,
            "# from: proj/.schemac.yaml\nselect: [all]\nignore: [unknown-field]\nseverity:\n  unknown-tag: warning\n"
            "per-path: {}\ntags: null  # tags.yaml beside each input, else built in\n"
            "profile: null  # chosen per file\ntorch-version: null  # newest\nnamespace: null\n"
            "custom-op-helpers: []\nexclude: []\ndocs-url: null  # no links to the rules\n");
  file("proj/.schemac.yaml", "ignroe: [unknown-field]\n");
  ToolRun bad = schemac("lint proj/sub/ops.yaml");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.out.find("proj/.schemac.yaml:1:1: error: unknown key 'ignroe' [config]"), std::string::npos) << bad.out;
  EXPECT_NE(bad.out.find("did you mean 'ignore'?"), std::string::npos);
}

TEST_F(DailyLoop, BaselineRecordsTodayAndReportsOnlyNewFindings) {
  file("ops.yaml", "- func: a(Tensor self) -> Tensor\n  dispach: {CPU: a}\n");
  ToolRun record = schemac("lint --baseline base.json ops.yaml");
  EXPECT_EQ(record.status, 0);
  EXPECT_NE(record.err.find("recorded 1 finding in baseline 'base.json'"), std::string::npos) << record.err;
  file("ops.yaml", "# moved down\n- func: a(Tensor self) -> Tensor\n  dispach: {CPU: a}\n  tags: [nope]\n");
  ToolRun later = schemac("lint --baseline base.json ops.yaml");
  EXPECT_EQ(later.status, 1);
  EXPECT_EQ(later.out.find("unknown-field"), std::string::npos) << later.out;
  EXPECT_NE(later.out.find("unknown-tag"), std::string::npos);
}

TEST_F(DailyLoop, StdinFoldersAndDuplicatesAreReadOnce) {
  file("ops.yaml", "- func: a(Tensor self) -> Tensor\n  dispach: {CPU: a}\n");
  std::filesystem::create_directories(dir_ / "tree/deep");
  file("tree/deep/more.yaml", "- func: b(Tensor self) -> Tensor\n  dispach: {CPU: b}\n");
  file("tree/ci.yaml", "jobs: {build: {runs-on: x}}\n");  // not an operator file: skipped in a folder
  ToolRun twice = schemac("lint ops.yaml ./ops.yaml tree");
  EXPECT_NE(twice.out.find("2 errors, 0 warnings"), std::string::npos) << twice.out;
  EXPECT_NE(twice.out.find("tree/deep/more.yaml:2:3: error"), std::string::npos);
  ToolRun piped = shell("'" SCHEMAC_EXE "' lint - --stdin-filename typed.yaml < ops.yaml");
  EXPECT_EQ(piped.status, 1);
  EXPECT_TRUE(piped.out.starts_with("typed.yaml:2:3: error: unknown field 'dispach' [unknown-field]\n")) << piped.out;
  ToolRun grep = shell("'" SCHEMAC_EXE "' lint ops.yaml | grep -c unknown-field");
  EXPECT_EQ(grep.out, "2\n");
  ToolRun capped = schemac("lint --max-errors 1 ops.yaml tree");
  EXPECT_EQ(capped.status, 1);
  EXPECT_NE(capped.err.find("stopped after 1 errors (--max-errors); 1 more not shown"), std::string::npos);
}

TEST_F(DailyLoop, SarifCarriesTheRunAndUtf16ColumnsAndHelpUris) {
  file("ops.yaml", "- func: a(Tensor self) -> Tensor\n  tags: [caf\xc3\xa9, nope]\n");
  ToolRun run = schemac("lint --format sarif ops.yaml missing.yaml");
  EXPECT_EQ(run.status, 2);
  nlohmann::json sarif = nlohmann::json::parse(run.out);
  const nlohmann::json& r = sarif["runs"][0];
  EXPECT_EQ(r["columnKind"], "utf16CodeUnits");
  EXPECT_EQ(r["invocations"][0]["executionSuccessful"], false);
  EXPECT_EQ(r["invocations"][0]["toolExecutionNotifications"][0]["message"]["text"], "cannot read 'missing.yaml'");
  // No published docs address: each rule carries its help text, and no link.
  EXPECT_FALSE(r["tool"]["driver"]["rules"][0].contains("helpUri"));
  EXPECT_NE(r["tool"]["driver"]["rules"][0]["help"]["text"].get<std::string>().find("severity:"), std::string::npos);
  ASSERT_EQ(r["results"].size(), 2u) << run.out;
  // 'nope' starts at byte column 17, after the two bytes of 'é': UTF-16 column 16.
  const nlohmann::json& region = r["results"][1]["locations"][0]["physicalLocation"]["region"];
  EXPECT_EQ(r["results"][1]["message"]["text"], "unknown tag 'nope'");
  EXPECT_EQ(region["startColumn"], 16);
  EXPECT_EQ(region["endColumn"], 20);
  ToolRun clean = schemac("lint --format sarif missing.yaml");
  EXPECT_EQ(nlohmann::json::parse(clean.out)["runs"][0]["invocations"][0]["executionSuccessful"], false);
}

TEST_F(DailyLoop, GithubAnnotationsAndJsonRuleList) {
  file("ops.yaml", "- func: a(Tensor self) -> Tensor\n  dispach: {CPU: a}\n");
  EXPECT_EQ(schemac("lint --format github ops.yaml").out,
            "::error file=ops.yaml,line=2,col=3,endColumn=10,title=unknown-field::unknown field 'dispach' "
            "[unknown-field]\n");
  nlohmann::json rules = nlohmann::json::parse(schemac("lint --list-rules --format json").out);
  ASSERT_TRUE(rules.is_array());
  EXPECT_EQ(rules[0].size(), 4u);
}

TEST_F(DailyLoop, EveryRuleHasAnAnchorInTheRulesPage) {
  const std::string doc = test::read_file(SCHEMAC_DOCS_DIR "/lint-rules.md");
  nlohmann::json rules = nlohmann::json::parse(
      schemac("lint --list-rules --format json --docs-url https://example.org/schemac/docs/").out);
  for (const nlohmann::json& rule : rules) {
    const std::string id = rule["id"];
    EXPECT_NE(doc.find("<a id=\"" + id + "\"></a>"), std::string::npos) << id;
    EXPECT_EQ(rule["helpUri"], "https://example.org/schemac/docs/lint-rules.md#" + id);
    EXPECT_TRUE(rule["help"].get<std::string>().starts_with(id + ": ")) << id;
  }
}

// A malformed out annotation is one finding, not four (the returns that cannot alias it, and a
// group that is not formed, are its consequences); a note across entries looks at the whole file.
TEST_F(DailyLoop, OneErrorPerMistakeAndCrossEntryNotesSeeTheWholeFile) {
  file("ops.yaml",
       "- func: scale2.out(Tensor self, *, Tensor! out) -> Tensor!\n"
       "  dispatch:\n"
       "    CPU: scale2_out\n"
       "\n"
       "- func: scale2(Tensor self) -> Tensor\n");
  ToolRun run = schemac("lint ops.yaml");
  EXPECT_EQ(run.status, 1);
  EXPECT_NE(run.out.find("1 error, 0 warnings\n  out-annotation  1 error\n"), std::string::npos) << run.out;
  ToolRun fixed = schemac("lint --fix ops.yaml");
  EXPECT_EQ(read("ops.yaml").substr(0, 67), "- func: scale2.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n  ");
  EXPECT_EQ(fixed.status, 0) << fixed.out;
  file("other.yaml",
       "- func: shift.out(Tensor self, int n, *, Tensor(a!) out) -> Tensor(a!)\n"
       "  dispatch:\n"
       "    CPU: shift_out\n"
       "- func: shift(Tensor self) -> Tensor\n");
  ToolRun other = schemac("lint other.yaml");
  EXPECT_EQ(other.out.find("declare 'shift' too"), std::string::npos) << other.out;
  EXPECT_NE(other.out.find("whose functional variant 'shift' has another signature"), std::string::npos) << other.out;
  EXPECT_NE(other.out.find("other.yaml:4:3: note: 'shift' is declared here"), std::string::npos) << other.out;
}

TEST_F(DailyLoop, OneGrammarForEverySubcommand) {
  ToolRun typo = schemac("lnt ops.yaml");
  EXPECT_EQ(typo.status, 2);
  EXPECT_EQ(typo.out, "");
  EXPECT_TRUE(typo.err.starts_with("schemac: error: unknown command 'lnt'\nnote: did you mean 'lint'?\n")) << typo.err;
  ToolRun option = schemac("lint --frmat json ops.yaml");
  EXPECT_EQ(option.status, 2);
  EXPECT_TRUE(option.err.starts_with("schemac lint: error: unknown option '--frmat'\nnote: did you mean '--format'?\n"))
      << option.err;
  ToolRun bad_value = schemac("lint --format xml ops.yaml");
  EXPECT_TRUE(bad_value.err.starts_with("schemac lint: error: ")) << bad_value.err;
  ToolRun help = schemac("help lint");
  EXPECT_EQ(help.status, 0);
  EXPECT_NE(help.out.find("--fix"), std::string::npos);
  EXPECT_EQ(schemac("help").status, 0);
  file("ops.cpp", "TORCH_LIBRARY(myops, m) {\n  m.def(\"f(Tensor self) -> Tensor\");\n}\n");
  ToolRun source = schemac("parse --source --json ops.cpp");
  EXPECT_EQ(source.status, 0) << source.err;
  EXPECT_NE(source.out.find("\"canonical\":\"f(Tensor self) -> Tensor\""), std::string::npos) << source.out;
  EXPECT_EQ(schemac("parse --format json 'f() -> ()'").out.substr(0, 11), "{\"ok\":true,");
  EXPECT_EQ(schemac("parse 'f() -> ()' --color never --json").status, 0);
  ToolRun coloured = schemac("parse --color always 'f(Tensor) -> ()'");
  EXPECT_NE(coloured.err.find("\033["), std::string::npos);
  ToolRun plain = shell("NO_COLOR=1 '" SCHEMAC_EXE "' parse 'f(Tensor) -> ()'");
  EXPECT_EQ(plain.err.find("\033["), std::string::npos);
}

}  // namespace
}  // namespace schemac::cli
