#include "schemac/tokens/mapped_text.h"

namespace schemac::tokens {

SourcePosition MappedText::position(size_t offset) const {
  if (offset < positions_.size()) return positions_[offset];
  if (end_.line != 0) return end_;
  return positions_.empty() ? SourcePosition{} : positions_.back();
}

void MappedText::push_back(char c, SourcePosition from) {
  text_.push_back(c);
  positions_.push_back(from);
}

void MappedText::push_utf8(uint32_t code, SourcePosition from) {
  if (code < 0x80) {
    push_back(static_cast<char>(code), from);
  } else if (code < 0x800) {
    push_back(static_cast<char>(0xc0 | (code >> 6)), from);
    push_back(static_cast<char>(0x80 | (code & 0x3f)), from);
  } else if (code < 0x10000) {
    push_back(static_cast<char>(0xe0 | (code >> 12)), from);
    push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3f)), from);
    push_back(static_cast<char>(0x80 | (code & 0x3f)), from);
  } else {
    push_back(static_cast<char>(0xf0 | ((code >> 18) & 0x07)), from);
    push_back(static_cast<char>(0x80 | ((code >> 12) & 0x3f)), from);
    push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3f)), from);
    push_back(static_cast<char>(0x80 | (code & 0x3f)), from);
  }
}

void MappedText::append(const MappedText& other) {
  text_ += other.text_;
  positions_.insert(positions_.end(), other.positions_.begin(), other.positions_.end());
  end_ = other.end_;
}

void MappedText::strip() {
  auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  size_t begin = 0;
  while (begin < text_.size() && blank(text_[begin])) ++begin;
  size_t end = text_.size();
  while (end > begin && blank(text_[end - 1])) --end;
  if (end < text_.size()) end_ = positions_[end];
  text_ = text_.substr(begin, end - begin);
  positions_ = std::vector<SourcePosition>(positions_.begin() + static_cast<long>(begin),
                                           positions_.begin() + static_cast<long>(end));
}

}  // namespace schemac::tokens
