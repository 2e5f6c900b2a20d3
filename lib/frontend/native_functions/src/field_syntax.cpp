// The lexical forms of field_syntax.h.
#include "field_syntax.h"

#include <cctype>

namespace schemac::native_functions {

using yaml::YamlNode;

bool is_identifier(std::string_view text) {
  if (text.empty() || std::isdigit(static_cast<unsigned char>(text[0]))) return false;
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (!std::isalnum(u) && c != '_' && u < 0x80) return false;
  }
  return true;
}

bool is_operator_name(std::string_view text) {
  size_t dot = text.find('.');
  if (dot == std::string_view::npos) return is_identifier(text);
  return is_identifier(text.substr(0, dot)) && is_identifier(text.substr(dot + 1));
}

bool is_kernel_name(std::string_view text) {
  int levels = 0;
  while (true) {
    size_t sep = text.find("::");
    if (!is_identifier(text.substr(0, sep))) return false;
    if (sep == std::string_view::npos) return true;
    if (++levels > 3) return false;
    text.remove_prefix(sep + 2);
  }
}

std::optional<bool> yaml11_bool(std::string_view v) {
  static constexpr std::string_view kTrue[] = {"true", "True", "TRUE", "yes", "Yes",
                                               "YES",  "on",   "On",   "ON"};
  static constexpr std::string_view kFalse[] = {"false", "False", "FALSE", "no", "No",
                                                "NO",    "off",   "Off",   "OFF"};
  for (std::string_view t : kTrue)
    if (v == t) return true;
  for (std::string_view f : kFalse)
    if (v == f) return false;
  return std::nullopt;
}

std::string_view kind_name(const YamlNode& node) {
  switch (node.kind) {
    case YamlNode::Kind::null: return "nothing";
    case YamlNode::Kind::scalar: return "a scalar";
    case YamlNode::Kind::sequence: return "a list";
    case YamlNode::Kind::mapping: return "a mapping";
  }
  return "a value";
}

}  // namespace schemac::native_functions
