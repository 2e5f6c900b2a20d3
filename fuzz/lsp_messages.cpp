// Fuzzes `schemac lsp` from its input bytes: the message reader's framing, then every frame's
// body through an initialized server (JSON-RPC checks, document edits, lint, quick fixes, hover,
// completion). Any input must give frames and answers, never a crash, a hang or a leak; every
// request with a usable id gets exactly one answer with that id.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "schemac/lsp/message_reader.h"
#include "schemac/lsp/server.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using nlohmann::json;
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  schemac::lsp::MessageReader reader(in, {256, 1 << 20});
  size_t answers = 0;
  schemac::lsp::Server server({{"file:///lint-rules.md", {}}, "fuzz"}, [&](const json& message) {
    if (message.contains("id")) ++answers;
    (void)message.dump(-1, ' ', false, json::error_handler_t::replace);
  });
  server.handle(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{}})");
  for (schemac::lsp::Frame frame = reader.next(); frame.status != schemac::lsp::Frame::Status::end && !server.exited();
       frame = reader.next()) {
    size_t before = answers;
    if (frame.status == schemac::lsp::Frame::Status::malformed) {
      server.handle_malformed_frame(frame.error);
    } else {
      server.handle(frame.body);
    }
    json message = json::parse(frame.body, nullptr, false);
    bool request = message.is_object() && message.contains("method") && message.contains("id") &&
                   (message["id"].is_string() || message["id"].is_number_integer());
    if (request && answers != before + 1) __builtin_trap();
  }
  return 0;
}
