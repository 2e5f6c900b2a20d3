#include "schemac/lsp/document.h"

#include <algorithm>

#include "schemac/lsp/text_positions.h"
#include "schemac/sources/scan.h"

namespace schemac::lsp {
namespace {

bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

Position position_from_json(const nlohmann::json& json) {
  return {json.at("line").get<uint32_t>(), json.at("character").get<uint32_t>()};
}

}  // namespace

DocumentLanguage language_of(std::string_view path, std::string_view language_id) {
  if (std::optional<sources::Language> language = sources::language_for_path(path)) {
    return *language == sources::Language::cpp ? DocumentLanguage::cpp : DocumentLanguage::python;
  }
  if (ends_with(path, ".yaml") || ends_with(path, ".yml") || language_id == "yaml")
    return DocumentLanguage::yaml;
  if (language_id == "cpp" || language_id == "c" || language_id == "cuda-cpp" ||
      language_id == "cuda") {
    return DocumentLanguage::cpp;
  }
  if (language_id == "python") return DocumentLanguage::python;
  return DocumentLanguage::other;
}

void apply_change(std::string& text, const nlohmann::json& change) {
  const std::string& replacement = change.at("text").get_ref<const std::string&>();
  auto range = change.find("range");
  if (range == change.end() || range->is_null()) {
    text = replacement;
    return;
  }
  LineIndex index(text);
  size_t start = index.offset(position_from_json(range->at("start")));
  size_t end = index.offset(position_from_json(range->at("end")));
  if (end < start) std::swap(start, end);
  text.replace(start, end - start, replacement);
}

}  // namespace schemac::lsp
