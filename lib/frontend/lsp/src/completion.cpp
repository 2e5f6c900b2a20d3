#include "schemac/lsp/completion.h"

#include <string>

#include "schemac/keys/dispatch_key_names.h"
#include "schemac/lint/file_kinds.h"
#include "schemac/native_functions/native_functions.h"

namespace schemac::lsp {
namespace {

// CompletionItemKind values of the protocol.
constexpr int kField = 5;
constexpr int kEnumMember = 20;
constexpr int kConstant = 21;

enum class Context { none, dispatch_key, tag, field };

size_t indent_of(std::string_view line) {
  size_t n = line.find_first_not_of(' ');
  return n == std::string_view::npos ? line.size() : n;
}

bool is_blank(std::string_view line) {
  return line.find_first_not_of(" \t") == std::string_view::npos;
}

// The text before the cursor, if it is only a partial key: letters, digits, '_' and ", ".
bool is_key_prefix(std::string_view text) {
  for (char c : text) {
    bool word =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    if (!word && c != ',' && c != ' ') return false;
  }
  return true;
}

std::string_view trimmed(std::string_view text) {
  size_t begin = text.find_first_not_of(' ');
  if (begin == std::string_view::npos) return {};
  size_t end = text.find_last_not_of(' ');
  return text.substr(begin, end - begin + 1);
}

Context yaml_context(const LineIndex& index, Position position) {
  std::string_view line = index.line(position.line);
  std::string_view before = line.substr(0, index.byte_column(position) - 1);
  size_t indent = indent_of(before);
  std::string_view rest = before.substr(indent);
  // `tags: ...`, `tags: [a, ...`, or a `- ` item of a tags list
  if (before.find("tags:") != std::string_view::npos) return Context::tag;
  if (rest.starts_with("- ") && indent > 0 && is_key_prefix(rest.substr(2))) {
    for (uint32_t l = position.line; l-- > 0;) {
      std::string_view above = index.line(l);
      if (is_blank(above) || indent_of(above) >= indent) continue;
      return trimmed(above).ends_with("tags:") ? Context::tag : Context::none;
    }
  }
  // `- fi`: the first key of a new entry
  if (indent == 0 && rest.starts_with("- ") && is_key_prefix(rest.substr(2))) return Context::field;
  if (!is_key_prefix(rest)) return Context::none;
  // A key being typed: what the nearest line above with less indent opens says what it is.
  for (uint32_t l = position.line; l-- > 0;) {
    std::string_view above = index.line(l);
    if (is_blank(above) || trimmed(above).starts_with("#")) continue;
    size_t above_indent = indent_of(above);
    std::string_view key = trimmed(above);
    if (above_indent < indent) {
      if (key.ends_with("dispatch:")) return Context::dispatch_key;
      // an entry's `- func: ...` line: the key column is after the "- "
      if (key.starts_with("- ") && above_indent + 2 == indent) return Context::field;
      return Context::none;
    }
    if (above_indent == indent && !key.starts_with("- ")) continue;  // a sibling key
    if (above_indent == indent) return Context::none;
  }
  return Context::none;
}

// In C++, the second argument of TORCH_LIBRARY_IMPL(ns, KEY, m), or a name after DispatchKey::
// (`torch::dispatch(c10::DispatchKey::CPU, ...)`).
Context cpp_context(const LineIndex& index, Position position) {
  std::string_view line = index.line(position.line);
  std::string_view before = line.substr(0, index.byte_column(position) - 1);
  size_t qualified = before.rfind("DispatchKey::");
  if (qualified != std::string_view::npos && is_key_prefix(before.substr(qualified + 13)) &&
      before.substr(qualified + 13).find_first_of(", ") == std::string_view::npos) {
    return Context::dispatch_key;
  }
  size_t call = before.rfind("TORCH_LIBRARY_IMPL(");
  if (call == std::string_view::npos) return Context::none;
  std::string_view args = before.substr(call);
  size_t comma = args.find(',');
  if (comma == std::string_view::npos || args.find(',', comma + 1) != std::string_view::npos)
    return Context::none;
  return Context::dispatch_key;
}

// In Python, the key string of `lib.impl("op", fn, "KEY")` (the third argument) or of
// `dispatch_key="KEY"`.
Context python_context(const LineIndex& index, Position position) {
  std::string_view line = index.line(position.line);
  std::string_view before = line.substr(0, index.byte_column(position) - 1);
  size_t quote = before.find_last_of("\"'");
  if (quote == std::string_view::npos || !is_key_prefix(before.substr(quote + 1)))
    return Context::none;
  std::string_view head = trimmed(before.substr(0, quote));
  if (head.ends_with("dispatch_key=")) return Context::dispatch_key;
  size_t call = head.rfind(".impl(");
  if (call == std::string_view::npos || !head.ends_with(",")) return Context::none;
  std::string_view args = head.substr(call);
  size_t commas = 0;
  for (char c : args) commas += c == ',' ? 1 : 0;
  return commas == 2 ? Context::dispatch_key : Context::none;
}

std::string_view key_detail(keys::DispatchKeyKind kind) {
  switch (kind) {
    case keys::DispatchKeyKind::functionality: return "dispatch key";
    case keys::DispatchKeyKind::backend: return "backend dispatch key";
    case keys::DispatchKeyKind::alias: return "alias dispatch key";
    case keys::DispatchKeyKind::synonym: return "another name of a dispatch key";
  }
  return "dispatch key";
}

}  // namespace

nlohmann::json completion(const Document& document, Position position) {
  LineIndex index(document.text);
  Context context = Context::none;
  if (document.language == DocumentLanguage::yaml) context = yaml_context(index, position);
  if (document.language == DocumentLanguage::cpp) context = cpp_context(index, position);
  if (document.language == DocumentLanguage::python) context = python_context(index, position);
  nlohmann::json items = nlohmann::json::array();
  switch (context) {
    case Context::dispatch_key:
      for (const keys::DispatchKeyName& key : keys::dispatch_key_names()) {
        if (key.kind == keys::DispatchKeyKind::synonym) continue;  // lint warns on them
        items.push_back(
            {{"label", key.name}, {"kind", kEnumMember}, {"detail", key_detail(key.kind)}});
      }
      break;
    case Context::tag:
      for (std::string_view tag : torch_releases::builtin_tags()) {
        items.push_back({{"label", tag}, {"kind", kConstant}, {"detail", "tag"}});
      }
      break;
    case Context::field:
      for (std::string_view field : native_functions::native_function_field_names()) {
        items.push_back({{"label", field},
                         {"kind", kField},
                         {"detail", "native_functions.yaml field"},
                         {"insertText", std::string(field) + ": "}});
      }
      break;
    case Context::none: break;
  }
  return {{"isIncomplete", false}, {"items", std::move(items)}};
}

}  // namespace schemac::lsp
