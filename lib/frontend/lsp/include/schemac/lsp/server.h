// The server: JSON-RPC 2.0 messages in, responses and notifications out, over the features of
// this library. Lifecycle as the protocol says: requests before `initialize` get
// ServerNotInitialized, requests after `shutdown` InvalidRequest, `exit` ends the session (exit
// code 0 after a shutdown, 1 without). A message that is not JSON gets a parse error (-32700),
// one that is not a JSON-RPC request an invalid-request error (-32600), an unknown request
// method-not-found (-32601), bad params invalid-params (-32602); the server keeps serving.
// Documents are linted on didOpen and on every didChange, and their diagnostics published; a
// .schemac.yaml (or .gitignore, or tags.yaml) that changes on disk — didSave of one open in the
// editor, or workspace/didChangeWatchedFiles, which the server asks the client to send for them
// when the client can register watchers — is read again and every open document linted again;
// with
// `defer_diagnostics` (as `serve` runs it) a changed document is only marked stale, and linted
// once the input is quiet, so a burst of edits costs one lint. `$/cancelRequest` answers a
// request not yet handled with RequestCancelled (-32800) instead of doing its work.
#pragma once

#include <chrono>
#include <functional>
#include <istream>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "schemac/lsp/diagnostics.h"
#include "schemac/lsp/document.h"

namespace schemac::lsp {

// JSON-RPC and LSP error codes.
enum ErrorCode : int {
  kParseError = -32700,
  kInvalidRequest = -32600,
  kMethodNotFound = -32601,
  kInvalidParams = -32602,
  kInternalError = -32603,
  kServerNotInitialized = -32002,
  kRequestCancelled = -32800,
};

struct ServerOptions {
  AnalysisOptions analysis;
  std::string version;  // serverInfo.version
  // didOpen/didChange mark the document stale instead of linting it; publish_stale() lints.
  bool defer_diagnostics = false;
  // For `serve`: how long the input must stay quiet before stale documents are linted (edits
  // typed within it are linted together), and the file descriptor behind the input stream to
  // wait on (-1: the stream's buffered text is all the input there is, as in tests).
  std::chrono::milliseconds debounce{0};
  int input_fd = -1;
};

class Server {
 public:
  // `send` receives every outgoing message (a response or a notification), unframed.
  Server(ServerOptions options, std::function<void(const nlohmann::json&)> send);

  // Handles one message body (the JSON text of a frame).
  void handle(std::string_view body);
  // Answers a frame that could not be read (MessageReader's `malformed`) with a parse error.
  void handle_malformed_frame(std::string_view why);

  bool exited() const { return exit_code_.has_value(); }
  // 0 after shutdown then exit, 1 for an exit without shutdown (or an input that ended).
  int exit_code() const { return exit_code_.value_or(1); }

  const Document* document(const std::string& uri) const;

  // Whether a document's diagnostics wait for publish_stale().
  bool has_stale() const { return !stale_.empty(); }
  // Lints every stale document and publishes its diagnostics.
  void publish_stale();
  // Notes that the request `id` is cancelled: when it is handled, it gets RequestCancelled.
  void cancel(const nlohmann::json& id);

 private:
  using Handler = nlohmann::json (Server::*)(const nlohmann::json& params);

  void handle_message(const nlohmann::json& message);
  void reply(const nlohmann::json& id, nlohmann::json result);
  void reply_error(const nlohmann::json& id, int code, std::string message);
  void publish(const Document& document);
  Document& open_document(const nlohmann::json& params);

  nlohmann::json initialize(const nlohmann::json& params);
  nlohmann::json shutdown(const nlohmann::json& params);
  nlohmann::json code_action(const nlohmann::json& params);
  nlohmann::json hover_request(const nlohmann::json& params);
  nlohmann::json completion_request(const nlohmann::json& params);
  void did_open(const nlohmann::json& params);
  void did_change(const nlohmann::json& params);
  void did_close(const nlohmann::json& params);
  void did_save(const nlohmann::json& params);
  void did_change_watched_files(const nlohmann::json& params);
  // After `initialized`: asks the client to watch the files configs depend on, when it can.
  void register_watchers();
  // A config (or what a config names) changed on disk: read again, every document linted again.
  void configs_changed();
  // Lints the document now, or marks it stale (defer_diagnostics).
  void changed(Document& document);
  void lint_and_publish(Document& document);

  ServerOptions options_;
  std::function<void(const nlohmann::json&)> send_;
  bool initialized_ = false;
  bool client_registers_watchers_ = false;  // workspace.didChangeWatchedFiles.dynamicRegistration
  bool shut_down_ = false;
  std::optional<int> exit_code_;
  std::map<std::string, Document, std::less<>> documents_;
  std::set<std::string, std::less<>> stale_;  // uris whose diagnostics are not yet published
  std::set<std::string> cancelled_;           // request ids (as JSON text) cancelled before handled
};

// Serves frames from `in`, writing framed messages to `out` (flushed after each), until `exit`
// or the end of the input; returns the exit code.
int serve(std::istream& in, std::ostream& out, ServerOptions options);

}  // namespace schemac::lsp
