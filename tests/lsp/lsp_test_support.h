// A server driven in process: messages in as JSON text, everything it sends kept in order.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "schemac/lsp/server.h"

namespace schemac::lsp::test {

using json = nlohmann::json;

inline json request(int id, std::string method, json params = json::object()) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"method", std::move(method)}, {"params", std::move(params)}};
}

inline json notification(std::string method, json params = json::object()) {
  return {{"jsonrpc", "2.0"}, {"method", std::move(method)}, {"params", std::move(params)}};
}

inline json did_open(const std::string& uri, const std::string& text, const std::string& language = "yaml") {
  return notification("textDocument/didOpen",
                      {{"textDocument", {{"uri", uri}, {"languageId", language}, {"version", 1}, {"text", text}}}});
}

inline json at(const std::string& uri, uint32_t line, uint32_t character) {
  return {{"textDocument", {{"uri", uri}}}, {"position", {{"line", line}, {"character", character}}}};
}

class Session {
 public:
  Session() : server_(ServerOptions{{"file:///docs/lint-rules.md", {}}, "test"}, [this](const json& m) { sent_.push_back(m); }) {}

  // Sends `message`; returns what the server sent in answer.
  std::vector<json> send(const json& message) { return send_text(message.dump()); }
  std::vector<json> send_text(const std::string& body) {
    size_t before = sent_.size();
    server_.handle(body);
    return {sent_.begin() + static_cast<std::ptrdiff_t>(before), sent_.end()};
  }
  // Sends `message` and returns the single message it must answer with.
  json one(const json& message) {
    std::vector<json> out = send(message);
    EXPECT_EQ(out.size(), 1u) << message.dump();
    return out.empty() ? json() : out.front();
  }
  void initialize() {
    one(request(0, "initialize", {{"capabilities", json::object()}}));
    send(notification("initialized"));
  }

  Server& server() { return server_; }

 private:
  Server server_;
  std::vector<json> sent_;
};

}  // namespace schemac::lsp::test
