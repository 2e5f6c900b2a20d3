// Text taken out of a source file, with the place each of its bytes came from. A schema joined
// from several string literals, escapes and line continuations still knows, byte by byte, which
// line and column of the file wrote it, so a diagnostic can point at the offending character.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace schemac::tokens {

// A place in a source file: 1-based line, 1-based column counting bytes; 0 means unknown.
struct SourcePosition {
  uint32_t line = 0;
  uint32_t column = 0;
  friend bool operator==(const SourcePosition&, const SourcePosition&) = default;
};

class MappedText {
 public:
  const std::string& text() const { return text_; }
  size_t size() const { return text_.size(); }
  bool empty() const { return text_.empty(); }

  // Where byte `offset` came from; `offset == size()` gives the place just after the last byte
  // (the closing quote of the last literal).
  SourcePosition position(size_t offset) const;

  void push_back(char c, SourcePosition from);
  // The UTF-8 bytes of code point `code`, all from one place (an escape such as \u00e9).
  void push_utf8(uint32_t code, SourcePosition from);
  void append(const MappedText& other);
  void set_end(SourcePosition end) { end_ = end; }
  // Drops leading and trailing blanks (spaces, tabs, line breaks), keeping the map in step.
  void strip();

 private:
  std::string text_;
  std::vector<SourcePosition> positions_;
  SourcePosition end_;
};

}  // namespace schemac::tokens
