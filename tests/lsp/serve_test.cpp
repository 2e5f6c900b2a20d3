// The serving loop over streams (lsp::serve): a burst of edits is linted once (debounce), a
// request cancelled before it is handled gets RequestCancelled, and a request that needs
// diagnostics sees the text as it is.
#include <sstream>

#include <gtest/gtest.h>

#include "lsp_test_support.h"
#include "schemac/lsp/message_reader.h"

namespace schemac::lsp::test {
namespace {

const std::string kUri = "file:///w/ops/native_functions.yaml";

std::string framed(const std::vector<json>& messages) {
  std::string out;
  for (const json& m : messages) out += frame_message(m.dump());
  return out;
}

// Serves `messages` (then the end of the input); returns what the server sent.
std::vector<json> serve_all(const std::vector<json>& messages) {
  std::istringstream in(framed(messages));
  std::ostringstream out;
  ServerOptions options{{"file:///docs/lint-rules.md", {}}, "test"};
  serve(in, out, options);
  std::istringstream sent(out.str());
  MessageReader reader(sent);
  std::vector<json> result;
  for (Frame f = reader.next(); f.status == Frame::Status::message; f = reader.next())
    result.push_back(json::parse(f.body));
  return result;
}

json change(int version, const std::string& text) {
  return notification("textDocument/didChange",
                      {{"textDocument", {{"uri", kUri}, {"version", version}}}, {"contentChanges", {{{"text", text}}}}});
}

std::vector<json> published(const std::vector<json>& sent) {
  std::vector<json> out;
  for (const json& m : sent) {
    if (m.value("method", "") == "textDocument/publishDiagnostics") out.push_back(m["params"]);
  }
  return out;
}

const json* answer(const std::vector<json>& sent, int id) {
  for (const json& m : sent) {
    if (m.contains("id") && m["id"] == id) return &m;
  }
  return nullptr;
}

TEST(Serve, ABurstOfEditsIsLintedOnceForTheLastText) {
  std::vector<json> messages = {request(0, "initialize", {{"capabilities", json::object()}}), notification("initialized"),
                                did_open(kUri, "- func: relu(Tensor self) -> Tensor\n")};
  std::string text = "- func: relu(Tensor self) -> Tensor\n  dispatch:\n    Cud: k\n";
  for (int version = 2; version <= 21; ++version) {
    messages.push_back(change(version, text));
    text.insert(text.size() - 4, "a");  // typing into the kernel's name: "Cud: ka", "Cud: kaa", ...
  }
  messages.push_back(request(5, "textDocument/hover", at(kUri, 0, 10)));
  std::vector<json> sent = serve_all(messages);
  std::vector<json> diagnostics = published(sent);
  ASSERT_EQ(diagnostics.size(), 1u);  // not 21
  EXPECT_EQ(diagnostics[0]["version"], 21);
  ASSERT_EQ(diagnostics[0]["diagnostics"].size(), 1u) << diagnostics[0].dump();
  EXPECT_EQ(diagnostics[0]["diagnostics"][0]["code"], "unknown-dispatch-key");
  ASSERT_NE(answer(sent, 5), nullptr);
  EXPECT_TRUE(answer(sent, 5)->contains("result"));
}

TEST(Serve, ACancelledRequestIsAnsweredRequestCancelledWithoutItsWork) {
  std::vector<json> sent = serve_all({request(0, "initialize", {{"capabilities", json::object()}}),
                                      notification("initialized"), did_open(kUri, "- func: relu(Tensor self) -> Tensor\n"),
                                      request(7, "textDocument/hover", at(kUri, 0, 10)),
                                      notification("$/cancelRequest", {{"id", 7}}),
                                      request(8, "textDocument/hover", at(kUri, 0, 10)),
                                      notification("$/cancelRequest", {{"id", 99}})});  // answered or unknown: nothing
  ASSERT_NE(answer(sent, 7), nullptr);
  EXPECT_EQ((*answer(sent, 7))["error"]["code"], -32800);
  ASSERT_NE(answer(sent, 8), nullptr);
  EXPECT_NE((*answer(sent, 8))["result"]["contents"]["value"].get<std::string>().find("relu(Tensor self)"),
            std::string::npos);
  size_t answers = 0;
  for (const json& m : sent) answers += m.contains("id") ? 1 : 0;
  EXPECT_EQ(answers, 3u);  // initialize, 7 and 8
}

TEST(Serve, ACodeActionAfterAnEditSeesTheEditedText) {
  std::vector<json> sent = serve_all(
      {request(0, "initialize", {{"capabilities", json::object()}}), notification("initialized"),
       did_open(kUri, "- func: relu(Tensor self) -> Tensor\n"),
       change(2, "- func: relu(Tensor self) -> Tensor\n  dispatch:\n    Cuda: k\n"),
       request(3, "textDocument/codeAction",
               {{"textDocument", {{"uri", kUri}}},
                {"range", {{"start", {{"line", 2}, {"character", 4}}}, {"end", {{"line", 2}, {"character", 8}}}}},
                {"context", {{"diagnostics", json::array()}}}})});
  ASSERT_NE(answer(sent, 3), nullptr);
  const json& actions = (*answer(sent, 3))["result"];
  ASSERT_EQ(actions.size(), 2u) << actions.dump();  // the fix, then "suppress on this line"
  EXPECT_EQ(actions[0]["title"], "replace 'Cuda' with 'CUDA'");
  EXPECT_EQ(published(sent).size(), 1u);
}

}  // namespace
}  // namespace schemac::lsp::test
