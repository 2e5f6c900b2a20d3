// An open document: its text as the client last sent it, what kind of file it is, and the
// diagnostics of that text (kept for the quick fixes a later codeAction asks for).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "schemac/diagnostics/diagnostic.h"

namespace schemac::lsp {

// YAML (native_functions, backend and executorch kernel files: lint recognises which by shape),
// C++ and Python registration code; anything else gets no diagnostics.
enum class DocumentLanguage { yaml, cpp, python, other };

// By the path's extension first (as `schemac lint` decides), then by the client's languageId.
DocumentLanguage language_of(std::string_view path, std::string_view language_id);

struct Document {
  std::string uri;
  std::string path;  // what diagnostics name, and where a tags.yaml beside it is looked for
  DocumentLanguage language = DocumentLanguage::other;
  int64_t version = 0;
  std::string text;
  std::vector<diagnostics::Diagnostic> diagnostics;  // of `text`, sorted by place
};

// Applies one TextDocumentContentChangeEvent: {"text"} replaces the whole text, {"range",
// "text"} the range (UTF-16 positions, clamped to the text). Throws nlohmann::json::exception
// when the event has the wrong shape.
void apply_change(std::string& text, const nlohmann::json& change);

}  // namespace schemac::lsp
