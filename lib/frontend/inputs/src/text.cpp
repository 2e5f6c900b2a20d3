// Reading bytes and whether they are text (text.h): UTF-8 checked by hand, with the place of
// the first bad byte.
#include "schemac/inputs/text.h"

#include <fmt/format.h>

#include "schemac/support/files.h"

namespace schemac::inputs {
namespace {

// The length of the well-formed UTF-8 sequence at text[i] (shortest form, no surrogates, at
// most U+10FFFF), or 0 when the bytes there are not one.
size_t utf8_sequence_length(std::string_view text, size_t i) {
  auto byte = [&](size_t k) { return k < text.size() ? static_cast<unsigned char>(text[k]) : 0u; };
  const unsigned c = byte(i);
  if (c < 0x80) return 1;
  const size_t n = c >= 0xf5 ? 0 : c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 ? 2 : 0;
  if (n == 0 || i + n > text.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xc0) != 0x80) return 0;
  }
  if (n == 3 && c == 0xe0 && byte(i + 1) < 0xa0) return 0;   // overlong
  if (n == 3 && c == 0xed && byte(i + 1) >= 0xa0) return 0;  // a UTF-16 surrogate
  if (n == 4 && c == 0xf0 && byte(i + 1) < 0x90) return 0;   // overlong
  if (n == 4 && c == 0xf4 && byte(i + 1) >= 0x90) return 0;  // above U+10FFFF
  return n;
}

std::string where(std::string_view text, size_t offset) {
  size_t line = 1, line_start = 0;
  for (size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  return fmt::format("line {}, column {}", line, offset - line_start + 1);
}

}  // namespace

std::string why_not_text(std::string_view text, bool any_encoding) {
  for (size_t i = 0; i < text.size();) {
    if (text[i] == '\0')
      return fmt::format("it holds a NUL byte at {} (a binary file?)", where(text, i));
    if (any_encoding) {
      ++i;
      continue;
    }
    const size_t n = utf8_sequence_length(text, i);
    if (n == 0) {
      return fmt::format("it is not UTF-8: byte 0x{:02x} at {}",
                         static_cast<unsigned char>(text[i]), where(text, i));
    }
    i += n;
  }
  return "";
}

std::optional<std::string> read_text_file(const std::filesystem::path& path, bool any_encoding,
                                          std::string* why) {
  std::optional<std::string> text = support::read_file(path);
  std::string problem = text ? why_not_text(*text, any_encoding) : "no such file, or not readable";
  if (why != nullptr) *why = problem;
  return problem.empty() ? text : std::nullopt;
}

}  // namespace schemac::inputs
