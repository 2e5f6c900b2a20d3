// The tokens both lexers produce and the call finders read. Only what finding registration calls
// needs is kept: identifiers, string literals (decoded, with their byte map), punctuation, and a
// catch-all for numbers and the rest.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "schemac/tokens/condition_path.h"
#include "schemac/tokens/mapped_text.h"

namespace schemac::tokens {

enum class TokenKind : uint8_t { identifier, string, punct, other };

// A token is small (48 bytes: a line of punctuation is a token every other byte): its spelling is
// a view into the text its TokenStream keeps.
struct Token {
  std::string_view text;    // spelling (identifiers, punctuation); the prefix for strings
  SourcePosition position;  // where the token starts
  uint32_t literal = 0;     // strings: index into TokenStream::literals
  uint32_t condition = 0;   // C++: index into TokenStream::conditions
  uint32_t stream = 0;      // C++: 0 for code, n for the body of the n-th #define
  uint32_t partner = 0;     // brackets: the index of the matching one, or the token count
  TokenKind kind = TokenKind::other;
  // C++ code with its macros expanded (cpp_expansion.h): the token came out of a macro (a #define
  // body, a -D value, a paste) rather than being written at the use; `made` when it is written
  // nowhere at all (a paste, a stringification, a -D value): `position` is then the macro's use.
  bool from_macro = false;
  bool made = false;
  // Made of a name that looks like a build macro (ALL-CAPS) nobody defined: its value is unknown.
  bool unknown = false;
};

struct StringLiteral {
  MappedText value;
  bool is_static = true;  // false: an f-string with replacement fields, an unterminated literal
};

struct TokenStream {
  // The texts the tokens' spellings view (the lexer's copy of the source; what macros made),
  // shared by copies.
  std::vector<std::shared_ptr<const std::string>> spellings;
  std::vector<Token> tokens;
  std::vector<StringLiteral> literals;
  std::vector<ConditionPath> conditions{ConditionPath{}};

  // Appends a string token and the literal it stands for.
  void add_string(Token token, StringLiteral literal) {
    token.literal = static_cast<uint32_t>(literals.size());
    literals.push_back(std::move(literal));
    tokens.push_back(std::move(token));
  }
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

// At most how many tokens either lexer makes of `text` (every token starts at a byte that is not
// blank and does not continue a name), so that the token vector is allocated once.
size_t token_bound(std::string_view text);

class MacroTable;
struct MacroDirective;
struct ExpansionBudget;
// `predefined`: the command line's and the config's macros (cpp_macros.h), besides the built-in
// ones; `directives`, when given, gets the file's #define and #undef lines in order (a #define's
// string literals linked to the body's tokens); `budget` bounds what #if expressions expand.
TokenStream lex_cpp(std::string_view text, const MacroTable* predefined = nullptr,
                    std::vector<MacroDirective>* directives = nullptr,
                    ExpansionBudget* budget = nullptr);
TokenStream lex_python(std::string_view text);

// ## Escape sequences: what both lexers read alike (escapes.cpp)

// The start of the escape sequence at text[i] (a backslash): `i` moves past the backslash and
// the letter after it. The forms C++ and Python read alike are decoded into `literal` here: the
// one-letter control escapes (\n \t \r \a \b \f \v), \uXXXX and \UXXXXXXXX. The caller
// decodes the rest from `letter`.
struct EscapeStart {
  char letter;          // the character after the backslash; '\0' at the end of the text
  SourcePosition from;  // where the backslash stands
  bool decoded;         // already appended to the literal (or found invalid: not static)
};
EscapeStart read_shared_escape(std::string_view text, size_t& i, SourcePosition from,
                               StringLiteral& literal);

// Up to `max_digits` hexadecimal digits from text[i] on, as a number in `value`; `i` moves past
// them. Returns how many there were.
size_t read_hex(std::string_view text, size_t& i, size_t max_digits, uint32_t& value);

// An octal escape's value: `first` (the digit after the backslash) and up to two more octal
// digits from text[i] on; `i` moves past them.
uint32_t read_octal(std::string_view text, size_t& i, char first);

// Exactly `digits` hexadecimal digits from text[i] on naming a code point up to U+10FFFF,
// appended to the literal as UTF-8 (at `from`); anything else makes the literal not static.
void read_code_point(std::string_view text, size_t& i, size_t digits, SourcePosition from,
                     StringLiteral& literal);

}  // namespace schemac::tokens
