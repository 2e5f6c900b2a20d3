#include "schemac/lsp/server.h"

#include <algorithm>
#include <deque>
#include <filesystem>
#include <initializer_list>
#include <ostream>

#include "schemac/lsp/completion.h"
#include "schemac/lsp/hover.h"
#include "schemac/lsp/message_reader.h"

namespace schemac::lsp {
namespace {

using json = nlohmann::json;

constexpr int kSyncIncremental = 2;

bool valid_id(const json& id) { return id.is_string() || id.is_number_integer(); }

const std::string& uri_of(const json& params) {
  return params.at("textDocument").at("uri").get_ref<const std::string&>();
}

// The member at `path` below `object`, or null when one of them is missing.
const json* json_at(const json& object, std::initializer_list<std::string_view> path) {
  const json* at = &object;
  for (std::string_view key : path) {
    if (!at->is_object()) return nullptr;
    auto it = at->find(std::string(key));
    if (it == at->end()) return nullptr;
    at = &*it;
  }
  return at;
}

// Whether a file of this name changes what documents are linted with: a config, what a folder
// search leaves out, a tags file found beside the inputs.
bool configures_linting(const std::string& path) {
  const std::string name = std::filesystem::path(path).filename().string();
  return name == ".schemac.yaml" || name == ".gitignore" || name == "tags.yaml";
}

Position position_of(const json& params) {
  const json& p = params.at("position");
  return {p.at("line").get<uint32_t>(), p.at("character").get<uint32_t>()};
}

}  // namespace

Server::Server(ServerOptions options, std::function<void(const json&)> send)
    : options_(std::move(options)), send_(std::move(send)) {}

const Document* Server::document(const std::string& uri) const {
  auto it = documents_.find(uri);
  return it == documents_.end() ? nullptr : &it->second;
}

void Server::reply(const json& id, json result) {
  send_({{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}});
}

void Server::reply_error(const json& id, int code, std::string message) {
  send_({{"jsonrpc", "2.0"},
         {"id", id},
         {"error", {{"code", code}, {"message", std::move(message)}}}});
}

void Server::handle_malformed_frame(std::string_view why) {
  reply_error(nullptr, kParseError, "unreadable message header: " + std::string(why));
}

void Server::handle(std::string_view body) {
  json message = json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (message.is_discarded()) {
    reply_error(nullptr, kParseError, "the message is not valid JSON");
    return;
  }
  handle_message(message);
}

void Server::handle_message(const json& message) {
  if (!message.is_object() || message.value("jsonrpc", json()) != "2.0") {
    reply_error(nullptr, kInvalidRequest, "not a JSON-RPC 2.0 message object");
    return;
  }
  auto id_field = message.find("id");
  auto method_field = message.find("method");
  const bool has_id = id_field != message.end();
  if (has_id && !valid_id(*id_field) && !id_field->is_null()) {
    reply_error(nullptr, kInvalidRequest, "'id' must be a string or an integer");
    return;
  }
  const json id = has_id ? *id_field : json();
  if (has_id && !cancelled_.empty() && cancelled_.erase(id.dump()) > 0) {
    reply_error(id, kRequestCancelled, "the request was cancelled");
    return;
  }
  if (method_field == message.end()) {
    if (has_id && (message.contains("result") || message.contains("error")))
      return;  // a response to us
    reply_error(id, kInvalidRequest, "the message has no 'method'");
    return;
  }
  if (!method_field->is_string()) {
    reply_error(id, kInvalidRequest, "'method' must be a string");
    return;
  }
  const std::string& method = method_field->get_ref<const std::string&>();
  json params = message.value("params", json::object());
  if (params.is_null()) params = json::object();
  if (!params.is_object() && !params.is_array()) {
    if (has_id) reply_error(id, kInvalidRequest, "'params' must be an object or an array");
    return;
  }

  if (!has_id) {  // a notification: never answered
    if (method == "exit") {
      exit_code_ = shut_down_ ? 0 : 1;
      return;
    }
    if (!initialized_ || shut_down_) return;
    try {
      if (method == "$/cancelRequest") cancel(params.at("id"));
      if (method == "textDocument/didOpen") did_open(params);
      if (method == "textDocument/didChange") did_change(params);
      if (method == "textDocument/didClose") did_close(params);
      if (method == "textDocument/didSave") did_save(params);
      if (method == "workspace/didChangeWatchedFiles") did_change_watched_files(params);
      if (method == "initialized") register_watchers();
    } catch (const json::exception&) {
      // A notification with bad params has no one to tell; the document stays as it was.
    }
    return;
  }

  static const std::map<std::string, Handler, std::less<>> kRequests = {
      {"initialize", &Server::initialize},
      {"shutdown", &Server::shutdown},
      {"textDocument/codeAction", &Server::code_action},
      {"textDocument/hover", &Server::hover_request},
      {"textDocument/completion", &Server::completion_request},
  };
  if (method == "initialize" && initialized_) {
    reply_error(id, kInvalidRequest, "the server is already initialized");
    return;
  }
  if (method != "initialize" && !initialized_) {
    reply_error(id, kServerNotInitialized, "the server is not initialized");
    return;
  }
  if (shut_down_) {
    reply_error(id, kInvalidRequest, "the server is shut down");
    return;
  }
  auto handler = kRequests.find(method);
  if (handler == kRequests.end()) {
    reply_error(id, kMethodNotFound, "unknown method '" + method + "'");
    return;
  }
  try {
    reply(id, (this->*handler->second)(params));
  } catch (const json::exception& e) {
    reply_error(id, kInvalidParams, "bad params for '" + method + "': " + e.what());
  }
}

json Server::initialize(const json& params) {
  initialized_ = true;
  // The workspace: the project whose files the rules across files see (diagnostics.h).
  if (params.contains("rootUri") && params["rootUri"].is_string())
    options_.analysis.workspace_root = path_from_uri(params["rootUri"].get<std::string>());
  const json* watched = json_at(params, {"capabilities", "workspace", "didChangeWatchedFiles"});
  client_registers_watchers_ =
      watched != nullptr && watched->is_object() && watched->value("dynamicRegistration", false);
  return {
      {"capabilities",
       {{"positionEncoding", "utf-16"},
        {"textDocumentSync",
         {{"openClose", true}, {"change", kSyncIncremental}, {"save", {{"includeText", false}}}}},
        {"codeActionProvider", {{"codeActionKinds", {"quickfix"}}}},
        {"hoverProvider", true},
        {"completionProvider", {{"triggerCharacters", {" ", ",", "["}}}}}},
      {"serverInfo", {{"name", "schemac"}, {"version", options_.version}}}};
}

json Server::shutdown(const json&) {
  publish_stale();  // every document's diagnostics go out before the answer
  shut_down_ = true;
  return nullptr;
}

Document& Server::open_document(const json& params) {
  const json& item = params.at("textDocument");
  Document document;
  document.uri = item.at("uri").get<std::string>();
  document.path = path_from_uri(document.uri);
  document.language = language_of(document.path, item.value("languageId", ""));
  document.version = item.value("version", int64_t{0});
  document.text = item.at("text").get<std::string>();
  Document& slot = documents_[document.uri];
  slot = std::move(document);
  return slot;
}

void Server::cancel(const json& id) {
  if (!valid_id(id)) return;
  // Ids cancelled after their answer went out are never erased: keep the set small.
  if (cancelled_.size() >= 256) cancelled_.clear();
  cancelled_.insert(id.dump());
}

void Server::changed(Document& document) {
  if (options_.defer_diagnostics) {
    stale_.insert(document.uri);
    return;
  }
  lint_and_publish(document);
}

void Server::lint_and_publish(Document& document) {
  stale_.erase(document.uri);
  document.diagnostics = lint_document(document, options_.analysis);
  publish(document);
}

void Server::publish_stale() {
  while (!stale_.empty()) {
    auto it = documents_.find(*stale_.begin());
    if (it == documents_.end()) {
      stale_.erase(stale_.begin());
      continue;
    }
    lint_and_publish(it->second);
  }
}

void Server::publish(const Document& document) {
  send_({{"jsonrpc", "2.0"},
         {"method", "textDocument/publishDiagnostics"},
         {"params",
          {{"uri", document.uri},
           {"version", document.version},
           {"diagnostics", lsp_diagnostics(document, options_.analysis)}}}});
}

void Server::did_open(const json& params) { changed(open_document(params)); }

void Server::did_change(const json& params) {
  auto it = documents_.find(uri_of(params));
  if (it == documents_.end()) return;
  Document& document = it->second;
  std::string text = document.text;  // the changes apply all or nothing
  for (const json& change : params.at("contentChanges")) apply_change(text, change);
  document.text = std::move(text);
  document.version = params.at("textDocument").value("version", document.version + 1);
  changed(document);
}

void Server::did_close(const json& params) {
  auto it = documents_.find(uri_of(params));
  if (it == documents_.end()) return;
  send_({{"jsonrpc", "2.0"},
         {"method", "textDocument/publishDiagnostics"},
         {"params", {{"uri", it->second.uri}, {"diagnostics", json::array()}}}});
  stale_.erase(it->first);
  documents_.erase(it);
}

void Server::did_save(const json& params) {
  if (configures_linting(path_from_uri(uri_of(params)))) configs_changed();
}

void Server::did_change_watched_files(const json& params) {
  for (const json& change : params.at("changes")) {
    if (configures_linting(path_from_uri(change.at("uri").get<std::string>()))) {
      configs_changed();
      return;
    }
  }
}

void Server::register_watchers() {
  if (!client_registers_watchers_) return;
  json watchers = json::array();
  for (const char* glob : {"**/.schemac.yaml", "**/.gitignore", "**/tags.yaml"})
    watchers.push_back({{"globPattern", glob}});
  send_({{"jsonrpc", "2.0"},
         {"id", "schemac-watch-configs"},
         {"method", "client/registerCapability"},
         {"params",
          {{"registrations",
            {{{"id", "schemac-watch-configs"},
              {"method", "workspace/didChangeWatchedFiles"},
              {"registerOptions", {{"watchers", watchers}}}}}}}}});
}

void Server::configs_changed() {
  if (options_.analysis.configs) options_.analysis.configs->forget();
  for (auto& [uri, document] : documents_) changed(document);
}

json Server::code_action(const json& params) {
  auto it = documents_.find(uri_of(params));
  if (it == documents_.end()) return json::array();
  if (stale_.contains(it->first)) lint_and_publish(it->second);  // the fixes of the text as it is
  const Document* doc = &it->second;
  // The client may ask for other kinds only (source actions, refactorings): none of them is
  // offered.
  const json only = params.value("context", json::object()).value("only", json::array());
  if (!only.empty() && std::find(only.begin(), only.end(), "quickfix") == only.end())
    return json::array();
  return quick_fixes(*doc, range_from_json(params.at("range")), options_.analysis);
}

json Server::hover_request(const json& params) {
  const Document* doc = document(uri_of(params));
  if (doc == nullptr) return json();
  return hover(*doc, position_of(params), scan_options_for(*doc, options_.analysis));
}

json Server::completion_request(const json& params) {
  const Document* doc = document(uri_of(params));
  if (doc == nullptr) return {{"isIncomplete", false}, {"items", json::array()}};
  return completion(*doc, position_of(params));
}

int serve(std::istream& in, std::ostream& out, ServerOptions options) {
  const std::chrono::milliseconds debounce = options.debounce;
  const int fd = options.input_fd;
  options.defer_diagnostics = true;
  Server server(std::move(options), [&out](const json& message) {
    out << frame_message(message.dump(-1, ' ', false, json::error_handler_t::replace));
    out.flush();
  });
  MessageReader reader(in);
  std::deque<Frame> queue;  // frames read, not yet handled
  bool ended = false;
  while (!server.exited()) {
    if (queue.empty()) {
      if (ended) {  // a session piped from a file still sees its diagnostics
        server.publish_stale();
        break;
      }
      // Diagnostics wait for a quiet input: what is typed meanwhile is applied first, and a
      // burst of edits is linted once.
      if (server.has_stale() && !reader.ready(fd, debounce)) {
        server.publish_stale();
        continue;
      }
      // Everything the client has sent, so that a cancellation is seen before the request.
      do {
        Frame frame = reader.next();
        if (frame.status == Frame::Status::end) {
          ended = true;
          break;
        }
        queue.push_back(std::move(frame));
      } while (reader.ready(fd, std::chrono::milliseconds(0)));
      for (const Frame& frame : queue) {
        if (frame.body.find("$/cancelRequest") == std::string::npos) continue;
        json message = json::parse(frame.body, nullptr, /*allow_exceptions=*/false);
        if (message.is_object() && message.value("method", json()) == "$/cancelRequest" &&
            message.contains("params") && message["params"].is_object() &&
            message["params"].contains("id"))
          server.cancel(message["params"]["id"]);
      }
      continue;
    }
    Frame frame = std::move(queue.front());
    queue.pop_front();
    if (frame.status == Frame::Status::malformed) {
      server.handle_malformed_frame(frame.error);
    } else {
      server.handle(frame.body);
    }
  }
  return server.exit_code();
}

}  // namespace schemac::lsp
