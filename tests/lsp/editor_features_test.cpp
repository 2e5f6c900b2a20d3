// The editor's side of one answer at every door, with real files: a .schemac.yaml changed on disk
// is read again (didChangeWatchedFiles, didSave), an open .schemac.yaml shows its own problems,
// a file `schemac lint` of the project would not read (.gitignore, a hidden folder, `exclude:`,
// a generator's banner) gets no diagnostics, the server asks a client that can to watch the
// configs, hover shows a custom op's inferred schema and an m.impl's operator, and the code
// actions suppress a finding on its line or remove an unused suppression.
#include <unistd.h>

#include <filesystem>
#include <memory>

#include <gtest/gtest.h>

#include "cli_test_support.h"
#include "lsp_test_support.h"
#include "schemac/config/provider.h"
#include "schemac/lsp/text_positions.h"

namespace schemac::lsp::test {
namespace {

namespace fs = std::filesystem;

class EditorFeatures : public schemac::test::ToolDirTest {
 protected:
  EditorFeatures() : ToolDirTest("schemac_editor_") {}

  void SetUp() override {
    ToolDirTest::SetUp();
    ServerOptions options{{"", std::make_shared<config::ConfigProvider>()}, "test"};
    options.analysis.project_context = true;
    server_ = std::make_unique<Server>(options, [this](const json& m) { sent_.push_back(m); });
  }

  std::vector<json> send(const json& message) {
    const size_t before = sent_.size();
    server_->handle(message.dump());
    return {sent_.begin() + static_cast<std::ptrdiff_t>(before), sent_.end()};
  }
  void initialize(json capabilities = json::object()) {
    send(request(0, "initialize",
                 {{"rootUri", uri_from_path(dir_.string())}, {"capabilities", capabilities}}));
  }
  std::string put(const std::string& name, const std::string& text) {
    fs::create_directories((dir_ / name).parent_path());
    schemac::test::write_file((dir_ / name).string(), text);
    return uri_from_path((dir_ / name).string());
  }
  // The diagnostics last published for `uri` among `messages` (null when none was).
  static json published(const std::vector<json>& messages, const std::string& uri) {
    json out;
    for (const json& m : messages) {
      if (m.value("method", "") == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri)
        out = m["params"]["diagnostics"];
    }
    return out;
  }
  json open(const std::string& uri, const std::string& text, const std::string& language) {
    return published(send(did_open(uri, text, language)), uri);
  }

  std::unique_ptr<Server> server_;
  std::vector<json> sent_;
};

const std::string kBadKey = "- func: relu(Tensor self) -> Tensor\n  dispatch:\n    Cuda: k\n";

TEST_F(EditorFeatures, AConfigChangedOnDiskIsReadAgain) {
  const std::string config = put(".schemac.yaml", "");
  const std::string ops = put("ops.yaml", kBadKey);
  initialize();
  json diagnostics = open(ops, kBadKey, "yaml");
  ASSERT_EQ(diagnostics.size(), 1u) << diagnostics.dump();
  EXPECT_EQ(diagnostics[0]["severity"], 1);
  // A watched-files notification: the config now ignores the rule.
  put(".schemac.yaml", "ignore: [unknown-dispatch-key]\n");
  std::vector<json> answer = send(notification("workspace/didChangeWatchedFiles",
                                               {{"changes", {{{"uri", config}, {"type", 2}}}}}));
  EXPECT_TRUE(published(answer, ops).empty()) << json(answer).dump();
  EXPECT_FALSE(published(answer, ops).is_null()) << "published again";
  // Saved in the editor: the rule is a warning now.
  put(".schemac.yaml", "severity: {unknown-dispatch-key: warning}\n");
  answer = send(notification("textDocument/didSave", {{"textDocument", {{"uri", config}}}}));
  diagnostics = published(answer, ops);
  ASSERT_EQ(diagnostics.size(), 1u) << json(answer).dump();
  EXPECT_EQ(diagnostics[0]["severity"], 2);
  // Another file saved changes nothing.
  EXPECT_TRUE(
      send(notification("textDocument/didSave", {{"textDocument", {{"uri", ops}}}})).empty());
}

TEST_F(EditorFeatures, AnOpenConfigShowsItsOwnProblems) {
  initialize();
  const std::string config = put(".schemac.yaml", "");
  json diagnostics = open(config, "ignroe: [unknown-type]\nselect: [unknwn-type]\n", "yaml");
  ASSERT_EQ(diagnostics.size(), 2u) << diagnostics.dump();
  EXPECT_EQ(diagnostics[0]["code"], "config");
  EXPECT_NE(diagnostics[0]["message"].get<std::string>().find("unknown key 'ignroe'"),
            std::string::npos);
  EXPECT_EQ(diagnostics[1]["range"]["start"]["line"], 1);
  EXPECT_TRUE(open(config, "ignore: [removed-default, torch-namespace]\n", "yaml").empty())
      << "every rule of the table is known";
}

TEST_F(EditorFeatures, FilesLintWouldNotReadGetNoDiagnostics) {
  fs::create_directories(dir_ / ".git");
  put(".gitignore", "build/\n");
  put(".schemac.yaml", "exclude: [\"vendored/\"]\n");
  initialize();
  EXPECT_EQ(open(put("ops.yaml", kBadKey), kBadKey, "yaml").size(), 1u) << "read by lint";
  for (const char* name : {"build/ops.yaml", "vendored/ops.yaml", ".cache/ops.yaml"})
    EXPECT_TRUE(open(put(name, kBadKey), kBadKey, "yaml").empty()) << name;
  const std::string generated = "# @generated by a tool\n" + kBadKey;
  EXPECT_TRUE(open(put("gen.yaml", generated), generated, "yaml").empty());
}

TEST_F(EditorFeatures, AClientThatCanIsAskedToWatchTheConfigs) {
  initialize({{"workspace", {{"didChangeWatchedFiles", {{"dynamicRegistration", true}}}}}});
  std::vector<json> answer = send(notification("initialized"));
  ASSERT_EQ(answer.size(), 1u);
  EXPECT_EQ(answer[0]["method"], "client/registerCapability");
  const json& registration = answer[0]["params"]["registrations"][0];
  EXPECT_EQ(registration["method"], "workspace/didChangeWatchedFiles");
  EXPECT_EQ(registration["registerOptions"]["watchers"][0]["globPattern"], "**/.schemac.yaml");
  // Its answer is a response, not a request: nothing comes back.
  EXPECT_TRUE(send({{"jsonrpc", "2.0"}, {"id", answer[0]["id"]}, {"result", nullptr}}).empty());
}

TEST_F(EditorFeatures, HoverOnACustomOpAndOnAnImpl) {
  initialize();
  const std::string py =
      "import torch\n"
      "from torch import Tensor\n"
      "\n"
      "@torch.library.custom_op(\"mylib::scale\", mutates_args=())\n"
      "def scale(x: Tensor, factor: float = 2.0) -> Tensor:\n"
      "    return x * factor\n";
  const std::string py_uri = put("ops.py", py);
  open(py_uri, py, "python");
  // infer_schema writes the default as Python prints it (2.0).
  for (uint32_t line : {3u, 4u}) {
    json hover = send(request(1, "textDocument/hover", at(py_uri, line, 6)))[0]["result"];
    ASSERT_TRUE(hover.is_object()) << "line " << line;
    const std::string text = hover["contents"]["value"];
    EXPECT_NE(text.find("scale(Tensor x, float factor=2.0) -> Tensor"), std::string::npos) << text;
    EXPECT_NE(text.find("infer_schema"), std::string::npos) << text;
  }
  const std::string cpp =
      "TORCH_LIBRARY(myops, m) {\n"
      "  m.def(\"shift(Tensor x, int n) -> Tensor\");\n"
      "}\n"
      "TORCH_LIBRARY_IMPL(myops, CPU, m) {\n"
      "  m.impl(\"shift\", shift_cpu);\n"
      "  m.impl(\"elsewhere\", other_cpu);\n"
      "}\n";
  const std::string cpp_uri = put("ops.cpp", cpp);
  open(cpp_uri, cpp, "cpp");
  json hover = send(request(2, "textDocument/hover", at(cpp_uri, 4, 6)))[0]["result"];
  ASSERT_TRUE(hover.is_object());
  std::string text = hover["contents"]["value"];
  EXPECT_NE(text.find("**myops::shift**"), std::string::npos) << text;
  EXPECT_NE(text.find("Implementation for **CPU**: `shift_cpu`"), std::string::npos) << text;
  EXPECT_NE(text.find("at::Tensor shift_cpu(const at::Tensor& x, int64_t n);"), std::string::npos)
      << text;
  text =
      send(request(3, "textDocument/hover", at(cpp_uri, 5, 6)))[0]["result"]["contents"]["value"];
  EXPECT_NE(text.find("**myops::elsewhere**"), std::string::npos) << text;
  EXPECT_NE(text.find("defined in another file"), std::string::npos) << text;
}

TEST_F(EditorFeatures, CodeActionsSuppressAFindingAndRemoveAnUnusedSuppression) {
  initialize();
  const std::string text =
      "- func: a(Tensorr self) -> Tensor  # schemac: ignore[duplicate-argument]\n"
      "- func: b(Tensor self) -> Tensor  # schemac: ignore[unknown-type]\n";
  const std::string uri = put("ops.yaml", text);
  json diagnostics = open(uri, text, "yaml");
  auto actions_on = [&](uint32_t line) {
    return send(request(4, "textDocument/codeAction",
                        {{"textDocument", {{"uri", uri}}},
                         {"range",
                          {{"start", {{"line", line}, {"character", 0}}},
                           {"end", {{"line", line}, {"character", 200}}}}},
                         {"context", {{"diagnostics", json::array()}}}}))[0]["result"];
  };
  // Line 1: unknown-type (suppressible into the comment there) and the unused duplicate-argument.
  json actions = actions_on(0);
  std::map<std::string, json> by_title;
  for (const json& a : actions) by_title[a["title"]] = a["edit"]["changes"][uri][0];
  ASSERT_TRUE(by_title.count("suppress [unknown-type] on this line")) << actions.dump(1);
  EXPECT_EQ(by_title["suppress [unknown-type] on this line"]["newText"], ", unknown-type");
  ASSERT_TRUE(by_title.count("remove the unused suppression")) << actions.dump(1);
  const json removal = by_title["remove the unused suppression"];
  EXPECT_EQ(removal["newText"], "");
  EXPECT_EQ(removal["range"]["start"], json::parse(R"({"line":0,"character":33})"));
  EXPECT_EQ(removal["range"]["end"], json::parse(R"({"line":0,"character":72})"));
  // Line 2: only the unused suppression, removed with its comment.
  actions = actions_on(1);
  ASSERT_EQ(actions.size(), 1u) << actions.dump(1);
  EXPECT_EQ(actions[0]["title"], "remove the unused suppression");
}

}  // namespace
}  // namespace schemac::lsp::test
