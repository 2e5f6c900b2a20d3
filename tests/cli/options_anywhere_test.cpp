// The one command-line grammar, end to end, for every schemac subcommand: options before or
// after the files, `--opt VALUE` and `--opt=VALUE`, repeated or comma-separated list options
// (each arrangement of options and files must give the same output and exit code); -V and
// --version everywhere; --format honoured or refused by every mode; `schemac help RULE`.
#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_test_support.h"

namespace schemac::cli {
namespace {

using test::ToolRun;

constexpr const char* kOps =
    "- func: a(Tensor self) -> Tensor\n"
    "  dispach: {CPU: a}\n"
    "- func: b(Tensor self) -> Tensor\n"
    "  dispatch: {CPUU: b}\n"
    "  tags: [nope]\n";

class OptionsAnywhere : public test::ToolDirTest {
 protected:
  OptionsAnywhere() : ToolDirTest("schemac_options_") {}

  ToolRun schemac(const std::string& args, const std::string& input = "") {
    return shell("'" SCHEMAC_EXE "' " + args + (input.empty() ? "" : " < " + input));
  }

  // Runs `command` with the units (an option with its value, or a file) in every order, and
  // checks that each order gives `expected_status` and the same stdout as the first.
  void every_order(const std::string& command, const std::vector<std::string>& units,
                   int expected_status, const std::string& stdin_file = "") {
    std::vector<size_t> order(units.size());
    std::iota(order.begin(), order.end(), 0);
    std::string first_out;
    bool first = true;
    size_t runs = 0;
    do {
      std::string line = command;
      for (size_t i : order) line += " " + units[i];
      ToolRun run = schemac(line, stdin_file);
      ++runs;
      EXPECT_EQ(run.status, expected_status) << line << "\n" << run.out << run.err;
      if (first) {
        first_out = run.out;
        first = false;
      } else {
        EXPECT_EQ(run.out, first_out) << line;
      }
    } while (std::next_permutation(order.begin(), order.end()));
    EXPECT_GE(runs, 2u);
  }
};

TEST_F(OptionsAnywhere, LintListOptionsNeverSwallowTheFiles) {
  file("ops.yaml", kOps);
  file("more.yaml", "- func: c(Tensor self) -> Tensor\n  dispach: {CPU: c}\n");
  // The cases: a list option right before the file.
  ToolRun select = schemac("lint --select unknown-dispatch-key ops.yaml");
  EXPECT_EQ(select.status, 1) << select.err;
  EXPECT_NE(select.out.find("[unknown-dispatch-key]"), std::string::npos) << select.out;
  EXPECT_EQ(select.out.find("[unknown-field]"), std::string::npos) << select.out;
  ToolRun ignore = schemac("lint --ignore unknown-field,unknown-tag ops.yaml");
  EXPECT_EQ(ignore.status, 1) << ignore.err;
  EXPECT_NE(ignore.out.find("1 error, 0 warnings"), std::string::npos) << ignore.out;
  // Every spelling selects the same rules.
  const std::string expected = select.out;
  for (const char* spelling : {"--select=unknown-dispatch-key ops.yaml",
                               "ops.yaml --select unknown-dispatch-key",
                               "--select unknown-dispatch-key --select unknown-dispatch-key ops.yaml",
                               "--select unknown-dispatch-key,unknown-dispatch-key ops.yaml"}) {
    EXPECT_EQ(schemac(std::string("lint ") + spelling).out, expected) << spelling;
  }
  ToolRun two = schemac("lint --select unknown-field --select unknown-tag ops.yaml more.yaml");
  EXPECT_NE(two.out.find("3 errors, 0 warnings"), std::string::npos) << two.out;
  every_order("lint", {"--select unknown-field,unknown-tag", "--ignore=unknown-tag", "ops.yaml",
                       "more.yaml"},
              1);
  every_order("lint", {"--format json", "--werror", "--max-errors 1", "ops.yaml"}, 1);
  every_order("--color never lint", {"--config=none.yaml", "ops.yaml"}, 2);  // a missing config
}

TEST_F(OptionsAnywhere, EverySubcommand) {
  file("ops.yaml", "- func: a(Tensor self) -> Tensor\n  dispatch: {CPU: a}\n");
  file("new.yaml", "- func: a(Tensor self, int n) -> Tensor\n  dispatch: {CPU: a}\n");
  file("bind.cpp", "TORCH_LIBRARY(ns, m) {\n  m.def(\"f(Tensor self) -> Tensor\");\n}\n");
  file("schemas.txt", "f(Tensor self) -> Tensor\n");
  every_order("parse", {"--format json", "--color=never", "'g(Tensor x) -> Tensor' 'h(int y) -> int'"}, 0);
  every_order("parse", {"--format=json", "--werror"}, 0, "schemas.txt");
  every_order("parse", {"--source", "--json", "bind.cpp"}, 0);
  every_order("compat", {"--format json", "--today 2026-01-01", "ops.yaml new.yaml"}, 1);
  every_order("gen", {"-o out", "--target torch", "--namespace=myops", "--shards 2", "ops.yaml"}, 0);
  every_order("gen", {"--output-dir=out", "--list-outputs", "ops.yaml"}, 0);
  // The server: options anywhere, then it reads stdin, which ends without a shutdown: exit 1.
  file("empty.txt", "");
  every_order("lsp", {"--docs-url https://example.org/docs/", "--color=never"}, 1, "empty.txt");
}

TEST_F(OptionsAnywhere, VersionEverywhere) {
  for (const char* line : {"-V", "--version", "lint -V", "lint --version", "gen -V ops.yaml",
                           "compat --version"}) {
    ToolRun run = schemac(line);
    EXPECT_EQ(run.status, 0) << line << run.err;
    EXPECT_TRUE(run.out.starts_with("schemac ")) << line << ": " << run.out;
  }
}

TEST_F(OptionsAnywhere, FormatIsHonouredOrRefusedByEveryMode) {
  file("ops.yaml", "- func: a(Tensor self) -> Tensor\n  dispach: {CPU: a}\n");
  ToolRun diff = schemac("lint --fix --diff --format json ops.yaml");
  EXPECT_EQ(diff.status, 2);
  EXPECT_EQ(diff.out, "");
  EXPECT_NE(diff.err.find("--format json does not apply to --fix --diff"), std::string::npos) << diff.err;
  EXPECT_EQ(schemac("lint --show-config --format sarif ops.yaml").status, 2);
  EXPECT_EQ(schemac("lint --list-rules --format github").status, 2);
  EXPECT_EQ(schemac("compat --list-rules --format sarif").status, 2);
  EXPECT_TRUE(nlohmann::json::parse(schemac("lint --list-tags --format json").out).is_array());
  EXPECT_TRUE(nlohmann::json::parse(schemac("compat --list-rules --format json").out).is_array());
  ToolRun fix = schemac("lint --fix --format json ops.yaml");
  EXPECT_EQ(fix.status, 0) << fix.out << fix.err;
  EXPECT_EQ(nlohmann::json::parse(fix.out), nlohmann::json::array());
}

TEST_F(OptionsAnywhere, HelpRulePrintsItsDocumentation) {
  ToolRun help = schemac("help unknown-dispatch-key");
  EXPECT_EQ(help.status, 0) << help.err;
  EXPECT_TRUE(help.out.starts_with("unknown-dispatch-key: ")) << help.out;
  EXPECT_NE(help.out.find("  severity: error\n"), std::string::npos) << help.out;
  EXPECT_NE(help.out.find("  documented: docs/lint-rules.md#unknown-dispatch-key"), std::string::npos)
      << help.out;
  EXPECT_EQ(help.out.find("<a id"), std::string::npos) << help.out;
  EXPECT_EQ(help.out.find("/work/"), std::string::npos) << help.out;
  ToolRun compat = schemac("help removed-operator");
  EXPECT_EQ(compat.status, 0);
  EXPECT_TRUE(compat.out.starts_with("removed-operator: ")) << compat.out;
  EXPECT_NE(compat.out.find("  documented: docs/compat.md#removed-operator"), std::string::npos);
  ToolRun warning = schemac("help unused-suppression");
  EXPECT_NE(warning.out.find("  severity: warning\n"), std::string::npos) << warning.out;
  ToolRun typo = schemac("help unknown-dispatch-kye");
  EXPECT_EQ(typo.status, 2);
  EXPECT_NE(typo.err.find("did you mean 'unknown-dispatch-key'?"), std::string::npos) << typo.err;
  EXPECT_EQ(schemac("help lint").status, 0);  // a subcommand's help still
}

}  // namespace
}  // namespace schemac::cli
