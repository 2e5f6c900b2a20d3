// Positions as LSP counts them: 0-based lines and, within a line, UTF-16 code units (the
// protocol's default encoding, the one every client supports), converted to and from the byte
// offsets and 1-based byte columns the rest of schemac uses; and file:// URIs to paths and back.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace schemac::lsp {

struct Position {
  uint32_t line = 0;
  uint32_t character = 0;  // UTF-16 code units from the line's start
  friend bool operator==(const Position&, const Position&) = default;
};

struct Range {
  Position start;
  Position end;
  friend bool operator==(const Range&, const Range&) = default;
};

// The line starts of a text, for conversions in both directions. Lines end at "\n" ("\r\n"
// counts as the line's end too). Malformed UTF-8 counts one unit per byte.
class LineIndex {
 public:
  explicit LineIndex(std::string_view text);

  size_t line_count() const { return starts_.size(); }
  // The text of line `line` (0-based) without its line break; empty past the end.
  std::string_view line(uint32_t line) const;
  // The position of 1-based `line` and 1-based byte `column`; a column past the line's end
  // stops at the end, a line past the text's end at the text's end.
  Position from_byte_column(uint32_t line, uint32_t column) const;
  // The byte offset of `position`; a character past the line's end stops there (as the
  // protocol says), a line past the text's end gives the text's size.
  size_t offset(Position position) const;
  // The 1-based byte column of `position` in its line.
  uint32_t byte_column(Position position) const;

 private:
  std::string_view text_;
  std::vector<size_t> starts_;
};

// The number of UTF-16 code units of UTF-8 `text`.
uint32_t utf16_length(std::string_view text);

// "file:///a/b%20c.yaml" -> "/a/b c.yaml"; a URI of another scheme is returned as it is.
std::string path_from_uri(std::string_view uri);
// "/a/b c.yaml" -> "file:///a/b%20c.yaml".
std::string uri_from_path(std::string_view path);

}  // namespace schemac::lsp
