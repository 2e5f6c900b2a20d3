#include "schemac/lsp/text_positions.h"

#include <algorithm>

namespace schemac::lsp {
namespace {

// The byte length of the UTF-8 sequence starting with `lead` (1 for a stray byte).
size_t sequence_length(unsigned char lead) {
  if (lead >= 0xF0 && lead <= 0xF4) return 4;
  if (lead >= 0xE0) return lead <= 0xEF ? 3 : 1;
  if (lead >= 0xC2) return 2;
  return 1;
}

bool is_continuation(unsigned char c) { return (c & 0xC0) == 0x80; }

// The length of the well-formed sequence at `text[i]`, or 1 for a malformed one.
size_t valid_sequence(std::string_view text, size_t i) {
  size_t n = sequence_length(static_cast<unsigned char>(text[i]));
  if (n == 1 || i + n > text.size()) return 1;
  for (size_t k = 1; k < n; ++k) {
    if (!is_continuation(static_cast<unsigned char>(text[i + k]))) return 1;
  }
  return n;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

uint32_t utf16_length(std::string_view text) {
  uint32_t units = 0;
  for (size_t i = 0; i < text.size();) {
    size_t n = valid_sequence(text, i);
    units += n == 4 ? 2 : 1;
    i += n;
  }
  return units;
}

LineIndex::LineIndex(std::string_view text) : text_(text) {
  starts_.push_back(0);
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') starts_.push_back(i + 1);
  }
}

std::string_view LineIndex::line(uint32_t line) const {
  if (line >= starts_.size()) return {};
  size_t begin = starts_[line];
  size_t end = line + 1 < starts_.size() ? starts_[line + 1] - 1 : text_.size();
  std::string_view text = text_.substr(begin, end - begin);
  if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
  return text;
}

Position LineIndex::from_byte_column(uint32_t line, uint32_t column) const {
  if (line == 0) return {};
  if (line > starts_.size()) {
    uint32_t last = static_cast<uint32_t>(starts_.size() - 1);
    return {last, utf16_length(this->line(last))};
  }
  std::string_view text = this->line(line - 1);
  size_t bytes = std::min<size_t>(column == 0 ? 0 : column - 1, text.size());
  return {line - 1, utf16_length(text.substr(0, bytes))};
}

size_t LineIndex::offset(Position position) const {
  if (position.line >= starts_.size()) return text_.size();
  std::string_view text = line(position.line);
  size_t i = 0;
  uint32_t units = 0;
  while (i < text.size() && units < position.character) {
    size_t n = valid_sequence(text, i);
    units += n == 4 ? 2 : 1;
    i += n;
  }
  return starts_[position.line] + i;
}

uint32_t LineIndex::byte_column(Position position) const {
  if (position.line >= starts_.size()) return 1;
  return static_cast<uint32_t>(offset(position) - starts_[position.line] + 1);
}

std::string path_from_uri(std::string_view uri) {
  constexpr std::string_view kScheme = "file://";
  if (uri.substr(0, kScheme.size()) != kScheme) return std::string(uri);
  uri.remove_prefix(kScheme.size());
  if (!uri.empty() && uri.front() != '/')
    uri.remove_prefix(std::min(uri.size(), uri.find('/')));  // host
  std::string path;
  for (size_t i = 0; i < uri.size(); ++i) {
    if (uri[i] == '%' && i + 2 < uri.size() && hex_value(uri[i + 1]) >= 0 &&
        hex_value(uri[i + 2]) >= 0) {
      path.push_back(static_cast<char>(hex_value(uri[i + 1]) * 16 + hex_value(uri[i + 2])));
      i += 2;
    } else {
      path.push_back(uri[i]);
    }
  }
  return path;
}

std::string uri_from_path(std::string_view path) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string uri = "file://";
  for (char c : path) {
    auto u = static_cast<unsigned char>(c);
    bool plain = (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') ||
                 std::string_view("/-._~").find(c) != std::string_view::npos;
    if (plain) {
      uri.push_back(c);
    } else {
      uri += '%';
      uri += kHex[u >> 4];
      uri += kHex[u & 15];
    }
  }
  return uri;
}

}  // namespace schemac::lsp
