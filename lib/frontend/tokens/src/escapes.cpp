// Escape sequences in string literals: the forms C++ and Python read alike (token.h).
#include "schemac/tokens/token.h"

namespace schemac::tokens {
namespace {

// The value of a hexadecimal digit, or -1.
int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// What a one-letter control escape stands for (\n \t \r \a \b \f \v), or '\0' for any other
// letter.
char control_escape(char letter) {
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

}  // namespace

EscapeStart read_shared_escape(std::string_view text, size_t& i, SourcePosition from,
                               StringLiteral& literal) {
  const char letter = i + 1 < text.size() ? text[i + 1] : '\0';
  i += 2;
  if (char c = control_escape(letter)) {
    literal.value.push_back(c, from);
    return {letter, from, true};
  }
  if (letter == 'u' || letter == 'U') {
    read_code_point(text, i, letter == 'u' ? 4 : 8, from, literal);
    return {letter, from, true};
  }
  return {letter, from, false};
}

size_t read_hex(std::string_view text, size_t& i, size_t max_digits, uint32_t& value) {
  size_t digits = 0;
  for (; digits < max_digits && i < text.size() && hex_value(text[i]) >= 0; ++i, ++digits) {
    value = (value << 4) | static_cast<uint32_t>(hex_value(text[i]));
  }
  return digits;
}

uint32_t read_octal(std::string_view text, size_t& i, char first) {
  auto value = static_cast<uint32_t>(first - '0');
  for (int k = 0; k < 2 && i < text.size() && text[i] >= '0' && text[i] <= '7'; ++k, ++i) {
    value = value * 8 + static_cast<uint32_t>(text[i] - '0');
  }
  return value;
}

void read_code_point(std::string_view text, size_t& i, size_t digits, SourcePosition from,
                     StringLiteral& literal) {
  uint32_t value = 0;
  if (read_hex(text, i, digits, value) != digits || value > 0x10ffff) {
    literal.is_static = false;  // ill-formed in C++, a SyntaxError in Python
    return;
  }
  literal.value.push_utf8(value, from);
}

}  // namespace schemac::tokens
