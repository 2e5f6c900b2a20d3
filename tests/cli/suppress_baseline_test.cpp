// Suppression comments and baselines end to end (issue 37.2, 37.3): `schemac lint` and
// `schemac lsp --stdio` on the same files report the same suppression findings; a baseline
// survives lines moving and reports a new finding at its own line.
#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_test_support.h"

namespace schemac::cli {
namespace {

using test::ToolRun;

class SuppressBaseline : public test::ToolDirTest {
 protected:
  SuppressBaseline() : ToolDirTest("schemac_suppress_baseline_") {}
  ToolRun schemac(const std::string& args) { return shell("'" SCHEMAC_EXE "' " + args); }

  // What `schemac lint --format json FILE` reports, as "rule@line:column" (1-based).
  std::vector<std::string> lint_findings(const std::string& name) {
    ToolRun run = schemac("lint --format json " + name);
    std::vector<std::string> out;
    nlohmann::json found = nlohmann::json::parse(run.out, nullptr, false);
    EXPECT_TRUE(found.is_array()) << run.out << run.err;
    if (!found.is_array()) return out;
    for (const auto& d : found)
      out.push_back(d["rule"].get<std::string>() + "@" + std::to_string(d["line"].get<int>()) + ":" +
                    std::to_string(d["column"].get<int>()));
    std::sort(out.begin(), out.end());
    return out;
  }

  // What `schemac lsp --stdio` publishes for the file opened in an editor, the same way.
  std::vector<std::string> server_findings(const std::string& name, const std::string& language) {
    const std::string uri = "file://" + (dir_ / name).string();
    std::string session;
    auto send = [&session](const nlohmann::json& m) {
      std::string body = m.dump();
      session += "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
    };
    send({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"}, {"params", {{"capabilities", nlohmann::json::object()}}}});
    send({{"jsonrpc", "2.0"}, {"method", "initialized"}, {"params", nlohmann::json::object()}});
    send({{"jsonrpc", "2.0"},
          {"method", "textDocument/didOpen"},
          {"params", {{"textDocument", {{"uri", uri}, {"languageId", language}, {"version", 1},
                                        {"text", test::read_file((dir_ / name).string())}}}}}});
    file("session.txt", session);
    ToolRun run = schemac("lsp --stdio < session.txt");
    std::vector<std::string> out;
    for (size_t at = run.out.find("\r\n\r\n"); at != std::string::npos; at = run.out.find("\r\n\r\n", at + 1)) {
      size_t end = run.out.find("Content-Length:", at);
      nlohmann::json m = nlohmann::json::parse(run.out.substr(at + 4, end == std::string::npos ? end : end - at - 4),
                                               nullptr, false);
      if (m.value("method", "") != "textDocument/publishDiagnostics") continue;
      for (const auto& d : m["params"]["diagnostics"])
        out.push_back(d["code"].get<std::string>() + "@" + std::to_string(d["range"]["start"]["line"].get<int>() + 1) +
                      ":" + std::to_string(d["range"]["start"]["character"].get<int>() + 1));
    }
    EXPECT_TRUE(run.err.empty()) << run.err;
    std::sort(out.begin(), out.end());
    return out;
  }
};

TEST_F(SuppressBaseline, IgnoreAllSilencesTheEntryInTheCliAndTheServer) {
  file("ops.yaml",
       "- func: a(Tensorr self) -> Tensor  # schemac: ignore[all]\n"
       "  dispach: {CPU: a}\n"
       "- func: b(Tensor self) -> Tensor  # schemac: ignore[all]\n");
  const std::vector<std::string> expected = {"unused-suppression@3:53"};
  EXPECT_EQ(lint_findings("ops.yaml"), expected);
  EXPECT_EQ(server_findings("ops.yaml", "yaml"), expected);
  EXPECT_EQ(schemac("lint ops.yaml").status, 0);
}

TEST_F(SuppressBaseline, UnknownIdsAndBareIgnoresAreFindingsInTheCliAndTheServer) {
  file("ops.yaml",
       "- func: a(Tensorr self) -> Tensor  # schemac: ignore[unknwn-type]\n"
       "- func: b(Tensorr self) -> Tensor  # schemac: ignore\n");
  const std::vector<std::string> expected = {"bare-suppression@2:38", "unknown-rule@1:54", "unknown-type@1:11",
                                             "unknown-type@2:11"};
  EXPECT_EQ(lint_findings("ops.yaml"), expected);
  EXPECT_EQ(server_findings("ops.yaml", "yaml"), expected);
  ToolRun run = schemac("lint ops.yaml");
  EXPECT_NE(run.out.find("ops.yaml:1:54: warning: unknown rule 'unknwn-type' in 'schemac: ignore[...]'; did you "
                         "mean 'unknown-type'? [unknown-rule]"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("ops.yaml:2:38: warning: 'schemac: ignore' names no rule: write 'schemac: "
                         "ignore[rule-id, ...]' (or 'ignore[all]') [bare-suppression]"),
            std::string::npos)
      << run.out;
}

TEST_F(SuppressBaseline, IgnoreNextLineAndBlockCommentsInCpp) {
  file("ops.cpp",
       "TORCH_LIBRARY(myops, m) {\n"
       "  m.def(  // schemac: ignore-next-line[unknown-type]\n"
       "      \"f(Tensorr self) -> Tensor\");\n"
       "  m.def(\"g(Tensorr self) -> Tensor\");  /* schemac: ignore[unknown-type] */\n"
       "  m.def(\"h(Tensorr self) -> Tensor\");\n"
       "}\n");
  const std::vector<std::string> expected = {"unknown-type@5:12"};
  EXPECT_EQ(lint_findings("ops.cpp"), expected);
  EXPECT_EQ(server_findings("ops.cpp", "cpp"), expected);
}

TEST_F(SuppressBaseline, ABaselineSurvivesLinesMovingAndReportsANewFindingAtItsLine) {
  const std::string three =
      "- func: a(Tensorr self) -> Tensor\n"
      "- func: b(Tensorr self) -> Tensor\n"
      "- func: c(Tensorr self) -> Tensor\n";
  file("ops.yaml", three);
  ToolRun record = schemac("lint --baseline base.json ops.yaml");
  EXPECT_EQ(record.status, 0) << record.out << record.err;
  EXPECT_NE(record.err.find("recorded 3 findings"), std::string::npos) << record.err;
  // A fourth at line 1: reported there, and only it.
  file("ops.yaml", "- func: d(Tensorr self) -> Tensor\n# moved\n" + three);
  ToolRun later = schemac("lint --baseline base.json ops.yaml");
  EXPECT_EQ(later.status, 1);
  EXPECT_EQ(later.out.substr(0, later.out.find('\n')),
            "ops.yaml:1:11: error: unknown type 'Tensorr'; did you mean 'Tensor'? [unknown-type]")
      << later.out;
  EXPECT_NE(later.out.find("1 error, 0 warnings"), std::string::npos) << later.out;
  // Fixed findings drop out; what is left is still excused.
  file("ops.yaml", "# moved\n- func: b(Tensorr self) -> Tensor\n- func: c(Tensor self) -> Tensor\n");
  ToolRun fixed = schemac("lint --baseline base.json ops.yaml");
  EXPECT_EQ(fixed.status, 0) << fixed.out;
  EXPECT_EQ(fixed.out, "");
}

TEST_F(SuppressBaseline, AVersionOneBaselineStillReads) {
  file("ops.yaml", "- func: a(Tensorr self) -> Tensor\n- func: b(Tensorr self) -> Tensor\n");
  file("old.json",
       R"({"version": 1, "findings": [{"file": "ops.yaml", "rule": "unknown-type", "message": "unknown type 'Tensorr'; did you mean 'Tensor'?"}]})");
  ToolRun run = schemac("lint --baseline old.json ops.yaml");
  EXPECT_EQ(run.status, 1);
  EXPECT_NE(run.out.find("1 error, 0 warnings"), std::string::npos) << run.out;
  file("bad.json", R"({"version": 3, "findings": []})");
  ToolRun bad = schemac("lint --baseline bad.json ops.yaml");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("baseline 'bad.json' is not usable: version 3 is not one this schemac reads"),
            std::string::npos)
      << bad.err;
}

}  // namespace
}  // namespace schemac::cli
