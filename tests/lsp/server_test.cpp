// The server in process: the lifecycle, JSON-RPC errors (and serving on after them), diagnostics
// on open and change with 0-based UTF-16 ranges and rule codes, quick fixes, hover and completion.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>

#include <gtest/gtest.h>

#include "lsp_test_support.h"
#include "schemac/engine/engine.h"

namespace schemac::lsp::test {
namespace {

constexpr std::string_view kUri = "file:///work/ops/native_functions.yaml";

// An unknown dispatch key with a did-you-mean fix, and a duplicate argument after a default with
// non-ASCII characters, so that its UTF-16 column differs from its byte column.
const std::string kBadYaml =
    "- func: relu(Tensor self, str mode=\"\xc3\xa9\xc3\xa9\", Tensor self) -> Tensor\n"
    "  dispatch:\n"
    "    CPU, Cuda: relu_kernel\n";

class ServerTest : public ::testing::Test {
 protected:
  void SetUp() override { session.initialize(); }

  // The publishDiagnostics notification among `messages`.
  static json published(const std::vector<json>& messages) {
    for (const json& m : messages) {
      if (m.value("method", "") == "textDocument/publishDiagnostics") return m["params"];
    }
    ADD_FAILURE() << "no publishDiagnostics";
    return json();
  }

  static const json* find_code(const json& diagnostics, std::string_view code) {
    for (const json& d : diagnostics) {
      if (d.value("code", "") == code) return &d;
    }
    return nullptr;
  }

  Session session;
};

TEST(ServerLifecycle, RequestsBeforeInitializeAreRefused) {
  Session session;
  json answer = session.one(request(1, "textDocument/hover", at(std::string(kUri), 0, 0)));
  EXPECT_EQ(answer["error"]["code"], kServerNotInitialized);
  answer = session.one(request(2, "initialize", {{"capabilities", json::object()}}));
  EXPECT_EQ(answer["id"], 2);
  EXPECT_EQ(answer["result"]["serverInfo"]["name"], "schemac");
  EXPECT_EQ(answer["result"]["capabilities"]["textDocumentSync"]["change"], 2);
  EXPECT_TRUE(answer["result"]["capabilities"]["hoverProvider"]);
  EXPECT_EQ(session.one(request(3, "initialize"))["error"]["code"], kInvalidRequest);
}

TEST(ServerLifecycle, ShutdownThenExitIsCleanExitAloneIsNot) {
  Session clean;
  clean.initialize();
  EXPECT_TRUE(clean.one(request(9, "shutdown"))["result"].is_null());
  EXPECT_EQ(clean.one(request(10, "textDocument/hover", at("file:///x.yaml", 0, 0)))["error"]["code"], kInvalidRequest);
  EXPECT_FALSE(clean.server().exited());
  clean.send(notification("exit"));
  EXPECT_TRUE(clean.server().exited());
  EXPECT_EQ(clean.server().exit_code(), 0);

  Session abrupt;
  abrupt.initialize();
  abrupt.send(notification("exit"));
  EXPECT_EQ(abrupt.server().exit_code(), 1);
}

TEST_F(ServerTest, MalformedMessagesGetJsonRpcErrorsAndServingGoesOn) {
  json answer = session.send_text("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": ").front();
  EXPECT_EQ(answer["error"]["code"], kParseError);
  EXPECT_TRUE(answer["id"].is_null());
  EXPECT_EQ(session.send_text("[1, 2]").front()["error"]["code"], kInvalidRequest);
  EXPECT_EQ(session.send_text("{\"id\": 2, \"method\": \"shutdown\"}").front()["error"]["code"], kInvalidRequest);
  EXPECT_EQ(session.send_text("{\"jsonrpc\": \"2.0\", \"id\": 3}").front()["error"]["code"], kInvalidRequest);
  EXPECT_EQ(session.send_text("{\"jsonrpc\": \"2.0\", \"id\": 4, \"method\": 5}").front()["error"]["code"],
            kInvalidRequest);
  EXPECT_EQ(session.send_text("{\"jsonrpc\": \"2.0\", \"id\": [4], \"method\": \"x\"}").front()["error"]["code"],
            kInvalidRequest);
  answer = session.one(request(5, "workspace/symbol", {{"query", ""}}));
  EXPECT_EQ(answer["error"]["code"], kMethodNotFound);
  EXPECT_EQ(answer["id"], 5);
  answer = session.one(request(6, "textDocument/hover", {{"textDocument", 1}}));
  EXPECT_EQ(answer["error"]["code"], kInvalidParams);
  session.server().handle_malformed_frame("header without Content-Length");
  // Unknown notifications and responses to the server's own requests get no answer.
  EXPECT_TRUE(session.send(notification("$/cancelRequest", {{"id", 1}})).empty());
  EXPECT_TRUE(session.send(notification("workspace/didChangeConfiguration")).empty());
  EXPECT_TRUE(session.send({{"jsonrpc", "2.0"}, {"id", 7}, {"result", nullptr}}).empty());
  EXPECT_TRUE(session.send(notification("textDocument/didOpen", {{"textDocument", 3}})).empty());
  // Still serving.
  json diagnostics = published(session.send(did_open(std::string(kUri), kBadYaml)))["diagnostics"];
  EXPECT_FALSE(diagnostics.empty());
}

TEST_F(ServerTest, DiagnosticsCarryRuleCodesAndUtf16Ranges) {
  json params = published(session.send(did_open(std::string(kUri), kBadYaml)));
  EXPECT_EQ(params["uri"], kUri);
  EXPECT_EQ(params["version"], 1);
  const json* key = find_code(params["diagnostics"], "unknown-dispatch-key");
  ASSERT_NE(key, nullptr) << params.dump(2);
  EXPECT_EQ((*key)["range"], json::parse(R"({"start":{"line":2,"character":9},"end":{"line":2,"character":13}})"));
  EXPECT_EQ((*key)["severity"], 1);
  EXPECT_EQ((*key)["source"], "schemac");
  EXPECT_EQ((*key)["codeDescription"]["href"], "file:///docs/lint-rules.md#unknown-dispatch-key");
  // `self` again after "éé": 0-based byte 50, UTF-16 character 48.
  const json* duplicate = find_code(params["diagnostics"], "duplicate-argument");
  ASSERT_NE(duplicate, nullptr) << params.dump(2);
  EXPECT_EQ((*duplicate)["range"]["start"], json::parse(R"({"line":0,"character":48})"));
}

TEST_F(ServerTest, OtherYamlFilesGetNoDiagnosticsButTheirSyntaxErrors) {
  EXPECT_TRUE(published(session.send(did_open("file:///w/.github/workflows/ci.yaml",
                                              "name: CI\non: [push]\njobs:\n  test:\n    runs-on: x\n")))["diagnostics"]
                  .empty());
  json broken = published(session.send(did_open("file:///w/compose.yaml", "services: [\n")))["diagnostics"];
  ASSERT_EQ(broken.size(), 1u) << broken.dump(2);
  EXPECT_EQ(broken[0]["code"], "yaml-syntax");
}

TEST_F(ServerTest, SuppressionCommentsApply) {
  json diagnostics = published(session.send(did_open(
      std::string(kUri),
      "- func: relu(Tensor self) -> Tensor\n  dispatch:\n    CPU, Cuda: relu_kernel  # schemac: ignore[unknown-dispatch-key]\n"
      "- func: gelu(Tensor self) -> Tensor  # schemac: ignore[duplicate-argument]\n")))["diagnostics"];
  ASSERT_EQ(diagnostics.size(), 1u) << diagnostics.dump(2);
  EXPECT_EQ(diagnostics[0]["code"], "unused-suppression");
  EXPECT_EQ(diagnostics[0]["range"]["start"]["line"], 3);
}

TEST(ServerConfig, TheDocumentsConfigurationApplies) {
  // The provider the server is given (here forced to one file, as with --config) decides.
  const std::filesystem::path file =
      std::filesystem::temp_directory_path() / ("schemac_server_config_" + std::to_string(::getpid()) + ".yaml");
  std::ofstream(file) << "ignore: [unknown-dispatch-key]\nseverity:\n  duplicate-argument: warning\n";
  ServerOptions options{{"file:///docs/lint-rules.md",
                         std::make_shared<config::ConfigProvider>(file.string(), engine::all_rules())},
                        "test"};
  std::vector<json> sent;
  Server server(options, [&](const json& m) { sent.push_back(m); });
  server.handle(request(1, "initialize").dump());
  server.handle(did_open("file:///w/ops.yaml",
                         "- func: relu(Tensor self, Tensor self) -> Tensor\n  dispatch:\n    Cuda: relu_kernel\n")
                    .dump());
  std::filesystem::remove(file);
  ASSERT_EQ(sent.size(), 2u);
  json diagnostics = sent[1]["params"]["diagnostics"];
  ASSERT_EQ(diagnostics.size(), 1u) << diagnostics.dump(2);
  EXPECT_EQ(diagnostics[0]["code"], "duplicate-argument");
  EXPECT_EQ(diagnostics[0]["severity"], 2);
}

TEST_F(ServerTest, QuickFixReplacesTheKeyAndAFixingChangeClearsTheDiagnostics) {
  const std::string uri(kUri);
  const std::string yaml = "- func: relu(Tensor self) -> Tensor\n  dispatch:\n    CPU, Cuda: relu_kernel\n";
  json diagnostics = published(session.send(did_open(uri, yaml)))["diagnostics"];
  ASSERT_EQ(diagnostics.size(), 1u) << diagnostics.dump(2);
  json actions = session.one(request(2, "textDocument/codeAction",
                                     {{"textDocument", {{"uri", uri}}},
                                      {"range", diagnostics[0]["range"]},
                                      {"context", {{"diagnostics", diagnostics}}}}))["result"];
  ASSERT_EQ(actions.size(), 1u) << actions.dump(2);
  EXPECT_EQ(actions[0]["kind"], "quickfix");
  EXPECT_EQ(actions[0]["title"], "replace 'Cuda' with 'CUDA'");
  json edit = actions[0]["edit"]["changes"][uri][0];
  EXPECT_EQ(edit["newText"], "CUDA");
  EXPECT_EQ(edit["range"], diagnostics[0]["range"]);
  // Nothing when the client asks only for other kinds of action, nor for a range elsewhere.
  EXPECT_TRUE(session.one(request(8, "textDocument/codeAction",
                                  {{"textDocument", {{"uri", uri}}},
                                   {"range", diagnostics[0]["range"]},
                                   {"context", {{"diagnostics", diagnostics}, {"only", {"source.organizeImports"}}}}}))["result"]
                  .empty());
  EXPECT_TRUE(session.one(request(3, "textDocument/codeAction",
                                  {{"textDocument", {{"uri", uri}}},
                                   {"range", {{"start", {{"line", 0}, {"character", 0}}}, {"end", {{"line", 0}, {"character", 1}}}}},
                                   {"context", {{"diagnostics", json::array()}}}}))["result"]
                  .empty());
  // The client applies the edit as an incremental change.
  json change = notification("textDocument/didChange",
                             {{"textDocument", {{"uri", uri}, {"version", 2}}},
                              {"contentChanges", {{{"range", edit["range"]}, {"text", "CUDA"}}}}});
  json params = published(session.send(change));
  EXPECT_EQ(params["version"], 2);
  EXPECT_TRUE(params["diagnostics"].empty()) << params.dump(2);
  EXPECT_EQ(session.server().document(uri)->text, "- func: relu(Tensor self) -> Tensor\n  dispatch:\n    CPU, CUDA: relu_kernel\n");
  // A full-text change brings an error back; closing clears it.
  change["params"]["contentChanges"] = {{{"text", "- func: relu(Tensor self -> Tensor\n"}}};
  EXPECT_EQ(published(session.send(change))["diagnostics"][0]["code"], "schema-syntax");
  json closed = published(session.send(notification("textDocument/didClose", {{"textDocument", {{"uri", uri}}}})));
  EXPECT_TRUE(closed["diagnostics"].empty());
  EXPECT_EQ(session.server().document(uri), nullptr);
}

TEST_F(ServerTest, HoverOnAFuncLineShowsTheCanonicalSchemaAndKernelSignature) {
  const std::string uri(kUri);
  session.send(did_open(uri,
                        "- func:   add.Tensor(Tensor self,Tensor other, *, Scalar alpha=1) ->   Tensor\n"
                        "  dispatch:\n"
                        "    CPU: add_cpu\n"));
  json hover = session.one(request(4, "textDocument/hover", at(uri, 0, 12)))["result"];
  ASSERT_TRUE(hover.is_object()) << hover.dump();
  EXPECT_EQ(hover["contents"]["kind"], "markdown");
  const std::string text = hover["contents"]["value"];
  EXPECT_NE(text.find("add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"), std::string::npos) << text;
  EXPECT_NE(text.find("at::Tensor add_cpu(const at::Tensor& self, const at::Tensor& other, const at::Scalar& alpha);"),
            std::string::npos)
      << text;
  EXPECT_TRUE(session.one(request(5, "textDocument/hover", at(uri, 2, 4)))["result"].is_null());
}

TEST_F(ServerTest, CppFileIsCheckedLiveAndHoverShowsTheDefinition) {
  const std::string uri = "file:///work/csrc/ops.cpp";
  const std::string cpp =
      "#include <torch/library.h>\n"
      "TORCH_LIBRARY(myops, m) {\n"
      "  m.def(\"scale(Tensor x, float factor, Tensor x) -> Tensor\");\n"
      "}\n";
  json diagnostics = published(session.send(did_open(uri, cpp, "cpp")))["diagnostics"];
  ASSERT_EQ(diagnostics.size(), 1u) << diagnostics.dump(2);
  EXPECT_EQ(diagnostics[0]["code"], "duplicate-argument");
  EXPECT_EQ(diagnostics[0]["range"]["start"], json::parse(R"({"line":2,"character":46})"));
  json change = notification("textDocument/didChange",
                             {{"textDocument", {{"uri", uri}, {"version", 2}}},
                              {"contentChanges", {{{"range", {{"start", {{"line", 2}, {"character", 46}}},
                                                              {"end", {{"line", 2}, {"character", 47}}}}},
                                                   {"text", "y"}}}}});
  EXPECT_TRUE(published(session.send(change))["diagnostics"].empty());
  json hover = session.one(request(6, "textDocument/hover", at(uri, 2, 10)))["result"];
  ASSERT_TRUE(hover.is_object());
  const std::string text = hover["contents"]["value"];
  EXPECT_NE(text.find("**myops::scale**"), std::string::npos) << text;
  EXPECT_NE(text.find("at::Tensor scale(const at::Tensor& x, double factor, const at::Tensor& y);"), std::string::npos)
      << text;
}

TEST_F(ServerTest, CompletesDispatchKeysTagsAndFields) {
  const std::string uri(kUri);
  session.send(did_open(uri,
                        "- func: relu(Tensor self) -> Tensor\n"
                        "  dispatch:\n"
                        "    CP\n"
                        "  tags: \n"
                        "  de\n"));
  auto labels = [&](uint32_t line, uint32_t character) {
    json items = session.one(request(7, "textDocument/completion", at(uri, line, character)))["result"]["items"];
    std::vector<std::string> out;
    for (const json& item : items) out.push_back(item["label"]);
    return out;
  };
  auto has = [](const std::vector<std::string>& v, std::string_view s) { return std::find(v.begin(), v.end(), s) != v.end(); };
  std::vector<std::string> keys = labels(2, 6);
  EXPECT_TRUE(has(keys, "CPU") && has(keys, "CompositeImplicitAutograd") && has(keys, "SparseCUDA"));
  EXPECT_FALSE(has(keys, "CatchAll"));
  std::vector<std::string> tags = labels(3, 8);
  EXPECT_TRUE(has(tags, "pointwise") && has(tags, "inplace_view"));
  std::vector<std::string> fields = labels(4, 4);
  EXPECT_TRUE(has(fields, "device_check") && has(fields, "structured_delegate"));
  EXPECT_TRUE(labels(0, 10).empty());  // inside the schema
}

TEST_F(ServerTest, CompletesDispatchKeysInRegistrationCode) {
  auto count = [&](const std::string& uri, uint32_t line, uint32_t character) {
    return session.one(request(9, "textDocument/completion", at(uri, line, character)))["result"]["items"].size();
  };
  const std::string cpp = "file:///w/ops.cpp";
  session.send(did_open(cpp,
                        "TORCH_LIBRARY_IMPL(myops, CP, m) {\n"
                        "  m.impl(\"scale\", torch::dispatch(c10::DispatchKey::CU, &scale_cuda));\n"
                        "}\n",
                        "cpp"));
  EXPECT_GT(count(cpp, 0, 28), 100u);  // after "myops, CP"
  EXPECT_EQ(count(cpp, 0, 19), 0u);    // the namespace
  EXPECT_GT(count(cpp, 1, 54), 100u);  // after "DispatchKey::CU"
  const std::string py = "file:///w/ops.py";
  session.send(did_open(py,
                        "lib = torch.library.Library(\"myops\", \"IMPL\")\n"
                        "lib.impl(\"scale\", scale_cpu, \"CP\")\n"
                        "lib.impl(\"scale\", scale_cpu, dispatch_key=\"CP\")\n",
                        "python"));
  EXPECT_GT(count(py, 1, 32), 100u);
  EXPECT_EQ(count(py, 1, 12), 0u);  // the operator's name
  EXPECT_GT(count(py, 2, 45), 100u);
}

}  // namespace
}  // namespace schemac::lsp::test
