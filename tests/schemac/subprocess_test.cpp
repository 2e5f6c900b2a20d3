// `schemac lsp` as a separate process: a whole session of framed messages on its stdin (a bad
// header and bad JSON among them), every framed answer on its stdout, and its exit code.
#include <sstream>

#include <gtest/gtest.h>

#include "cli_test_support.h"
#include "../lsp/lsp_test_support.h"
#include "schemac/lsp/message_reader.h"

namespace schemac::lsp::test {
namespace {

class LspProcessTest : public schemac::test::ToolDirTest {
 protected:
  LspProcessTest() : ToolDirTest("schemac_lsp_") {}

  // Runs `schemac lsp` on `input`; the frames it wrote, in order.
  std::vector<json> run(const std::string& input, int expected_status) {
    file("session.bin", input);
    schemac::test::ToolRun result = shell(std::string("'") + SCHEMAC_EXE + "' lsp < session.bin");
    EXPECT_EQ(result.status, expected_status) << result.err;
    EXPECT_EQ(result.err, "");
    std::istringstream out(result.out);
    MessageReader reader(out);
    std::vector<json> messages;
    for (Frame f = reader.next(); f.status != Frame::Status::end; f = reader.next()) {
      EXPECT_EQ(f.status, Frame::Status::message) << f.error;
      messages.push_back(json::parse(f.body));
    }
    return messages;
  }

  static std::string framed(const json& message) { return frame_message(message.dump()); }
};

const json* with_id(const std::vector<json>& messages, int id) {
  for (const json& m : messages) {
    if (m.contains("id") && m["id"] == id) return &m;
  }
  return nullptr;
}

TEST_F(LspProcessTest, WholeSessionOverStdio) {
  file("ops.yaml", "- func: relu(Tensor self) -> Tensor\n  dispatch:\n    Cuda: relu_kernel\n");
  const std::string uri = uri_from_path((dir_ / "ops.yaml").string());
  const std::string text = schemac::test::read_file((dir_ / "ops.yaml").string());
  json fix_range = {{"start", {{"line", 2}, {"character", 4}}}, {"end", {{"line", 2}, {"character", 8}}}};
  std::string input = framed(request(1, "initialize", {{"capabilities", json::object()}})) +
                      framed(notification("initialized")) + framed(did_open(uri, text)) +
                      "Content-Type: text/plain\r\n\r\n" +  // no Content-Length
                      frame_message("{\"jsonrpc\": \"2.0\", \"id\": 2,") +
                      framed(request(3, "textDocument/codeAction",
                                     {{"textDocument", {{"uri", uri}}}, {"range", fix_range}, {"context", {{"diagnostics", json::array()}}}})) +
                      framed(request(4, "textDocument/hover", at(uri, 0, 9))) +
                      framed(notification("textDocument/didChange",
                                          {{"textDocument", {{"uri", uri}, {"version", 2}}},
                                           {"contentChanges", {{{"range", fix_range}, {"text", "CUDA"}}}}})) +
                      framed(request(5, "shutdown")) + framed(notification("exit"));
  std::vector<json> messages = run(input, 0);
  ASSERT_EQ(messages.size(), 8u);
  EXPECT_EQ(messages[0]["id"], 1);
  // Diagnostics wait for a quiet input (the debounce), so the publishes are found by method: the
  // first for the text as opened, the last for the text after the fix.
  std::vector<const json*> publishes;
  std::vector<const json*> parse_errors;
  for (const json& m : messages) {
    if (m.value("method", "") == "textDocument/publishDiagnostics") publishes.push_back(&m);
    if (m.contains("error") && m["error"]["code"] == kParseError) parse_errors.push_back(&m);
  }
  ASSERT_EQ(publishes.size(), 2u);
  json diagnostic = (*publishes[0])["params"]["diagnostics"][0];
  EXPECT_EQ(diagnostic["code"], "unknown-dispatch-key");
  EXPECT_EQ(diagnostic["range"], fix_range);
  // No published docs address given: no link, rather than a path of the machine that built it.
  EXPECT_FALSE(diagnostic.contains("codeDescription")) << diagnostic.dump();
  EXPECT_EQ(parse_errors.size(), 2u);  // the header without a length, the cut JSON
  const json* actions = with_id(messages, 3);
  ASSERT_NE(actions, nullptr);
  EXPECT_EQ((*actions)["result"][0]["edit"]["changes"][uri][0]["newText"], "CUDA");
  const json* hover = with_id(messages, 4);
  ASSERT_NE(hover, nullptr);
  EXPECT_NE((*hover)["result"]["contents"]["value"].get<std::string>().find("at::Tensor relu_kernel(const at::Tensor& self);"),
            std::string::npos);
  // The hover came before the fix: the kernel of the misspelt key is shown all the same.
  EXPECT_TRUE((*publishes[1])["params"]["diagnostics"].empty());
  EXPECT_EQ(messages[7]["id"], 5);  // shutdown's answer comes after every publish
}

TEST_F(LspProcessTest, TheNearestSchemacYamlAboveTheDocumentApplies) {
  file(".schemac.yaml", "ignore: [unknown-dispatch-key]\n");
  std::filesystem::create_directories(dir_ / "sub");
  const std::string yaml = "- func: relu(Tensor self, Tensor self) -> Tensor\n  dispatch:\n    Cuda: relu_kernel\n";
  const std::string uri = uri_from_path((dir_ / "sub" / "ops.yaml").string());
  std::vector<json> messages = run(framed(request(1, "initialize")) + framed(did_open(uri, yaml)) +
                                       framed(request(2, "shutdown")) + framed(notification("exit")),
                                   0);
  ASSERT_EQ(messages.size(), 3u);
  json diagnostics = messages[1]["params"]["diagnostics"];
  ASSERT_EQ(diagnostics.size(), 1u) << diagnostics.dump(2);
  EXPECT_EQ(diagnostics[0]["code"], "duplicate-argument");
}

TEST_F(LspProcessTest, InputEndingWithoutShutdownExitsOne) {
  std::vector<json> messages = run(framed(request(1, "initialize")) + "Content-Length: 40\r\n\r\n{", 1);
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_EQ(messages[0]["id"], 1);
}

// Bad input on stdin: each row ends with exit 1 (the input ends without shutdown and exit), never
// a signal or a hang, nothing on stderr, and only well-formed frames on stdout, each an answer.
TEST_F(LspProcessTest, BadInputRows) {
  std::string binary(64 * 1024, '\0');
  uint32_t state = 19;
  for (char& c : binary) c = static_cast<char>((state = state * 1103515245 + 12345) >> 24);
  const std::string init = framed(request(1, "initialize"));
  const std::string long_yaml = "- func: f(Tensor self) -> Tensor  # " + std::string(300 * 1024, 'x') + "\n";
  struct Row {
    std::string name;
    std::string input;
    int errors;  // error answers expected (besides initialize's result and diagnostics); -1: any
  };
  const std::vector<Row> rows = {
      {"binary", binary, -1},
      {"huge header line", init + "X-Pad: " + std::string(300 * 1024, 'h') + "\r\n\r\n", 1},
      {"length above the limit, the body cut short", init + "Content-Length: 99999999999\r\n\r\n{}", 0},
      {"invalid UTF-8 in JSON", init + frame_message("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"caf\xe9\"}"), 1},
      {"deep nesting", init + frame_message(std::string(100000, '[') + std::string(100000, ']')), 1},
      {"one huge line", init + framed(did_open("file:///w/huge.yaml", long_yaml)), 0},
  };
  for (const Row& row : rows) {
    SCOPED_TRACE(row.name);
    std::vector<json> messages = run(row.input, 1);
    int errors = 0;
    for (const json& m : messages) errors += m.contains("error") ? 1 : 0;
    if (row.errors >= 0) {
      EXPECT_EQ(errors, row.errors);
    }
  }
}

}  // namespace
}  // namespace schemac::lsp::test
