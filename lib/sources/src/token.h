// The tokens both lexers produce and the call finders read. Only what finding registration calls
// needs is kept: identifiers, string literals (decoded, with their byte map), punctuation, and a
// catch-all for numbers and the rest.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "schemac/sources/mapped_text.h"
#include "schemac/sources/scan.h"

namespace schemac::sources {

enum class TokenKind : uint8_t { identifier, string, punct, other };

struct Token {
  TokenKind kind = TokenKind::other;
  std::string text;         // spelling (identifiers, punctuation); the prefix for strings
  SourcePosition position;  // where the token starts
  uint32_t literal = 0;     // strings: index into TokenStream::literals
  uint32_t condition = 0;   // C++: index into TokenStream::conditions
  uint32_t stream = 0;      // C++: 0 for code, n for the body of the n-th #define
  uint32_t partner = 0;     // brackets: the index of the matching one, or the token count
};

struct StringLiteral {
  MappedText value;
  bool is_static = true;  // false: an f-string with replacement fields, an unterminated literal
};

struct TokenStream {
  std::vector<Token> tokens;
  std::vector<StringLiteral> literals;
  std::vector<ConditionPath> conditions{ConditionPath{}};
};

// Turns byte offsets into 1-based line and column.
class LineTable {
 public:
  explicit LineTable(std::string_view text);
  SourcePosition position(size_t offset) const;

 private:
  std::vector<size_t> starts_;
};

// Pairs every ( [ { with its closing bracket (any kind closes any, as a forgiving reader of
// broken code should), in one pass. A #define body pairs only within itself; the code around it
// pairs across it. Both lexers call it last.
void pair_brackets(TokenStream& stream);

TokenStream lex_cpp(std::string_view text);
TokenStream lex_python(std::string_view text);

// Character helpers both lexers share.
// The value of a hexadecimal digit, or -1.
inline int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
// What a one-letter control escape that C++ and Python share stands for (\n \t \r \a \b \f
// \v), or '\0' for any other letter.
inline char control_escape(char letter) {
  switch (letter) {
    case 'n': return '\n';
    case 't': return '\t';
    case 'r': return '\r';
    case 'a': return '\a';
    case 'b': return '\b';
    case 'f': return '\f';
    case 'v': return '\v';
    default: return '\0';
  }
}

}  // namespace schemac::sources
