// Trimming text: one definition for the places that read words and fields out of lines.
#pragma once

#include <cctype>
#include <string_view>

namespace schemac::support {

// `text` without leading and trailing whitespace (std::isspace: spaces, tabs, line breaks).
inline std::string_view trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
    text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
    text.remove_suffix(1);
  return text;
}

// `text` without leading and trailing spaces and tabs (line breaks are kept).
inline std::string_view trim_blanks(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

}  // namespace schemac::support
