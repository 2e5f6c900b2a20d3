// The Python tokenizer: comments, explicit line joining, and every string literal form —
// prefixes r b u f (any case, rb/br/fr/rf), single and triple quotes, escapes. An f-string with a
// replacement field is not static; `{{` and `}}` in one are plain braces. The branches of `if` /
// `elif` / `else` and of `try` / `except` statements are recorded as C++'s #if branches are
// (Token::condition): two definitions in different branches never both run. A `try`'s `else`
// runs with its body, `finally` after whichever ran.
#include <string_view>

#include "schemac/tokens/token.h"

namespace schemac::tokens {
namespace {

bool is_identifier_start(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
}
bool is_identifier_char(unsigned char c) {
  return is_identifier_start(c) || (c >= '0' && c <= '9');
}

// A string prefix: up to two of r, b, u, f in any case, at most one of each kind.
bool is_string_prefix(std::string_view id) {
  if (id.empty() || id.size() > 2) return false;
  bool raw = false, bytes = false, unicode = false, format = false;
  for (char c : id) {
    bool* seen = nullptr;
    switch (c) {
      case 'r':
      case 'R': seen = &raw; break;
      case 'b':
      case 'B': seen = &bytes; break;
      case 'u':
      case 'U': seen = &unicode; break;
      case 'f':
      case 'F': seen = &format; break;
      default: return false;
    }
    if (*seen) return false;
    *seen = true;
  }
  return !(unicode && id.size() > 1) && !(bytes && format);
}

class PythonLexer {
 public:
  explicit PythonLexer(std::string_view source)
      : spelling_(std::make_shared<std::string>(source)), source_(*spelling_), lines_(source) {
    out_.tokens.reserve(token_bound(source_));
  }

  TokenStream run() {
    while (i_ < source_.size()) step();
    out_.spellings.push_back(std::move(spelling_));
    return std::move(out_);
  }

 private:
  char at(size_t k) const { return k < source_.size() ? source_[k] : '\0'; }
  SourcePosition position(size_t k) const { return lines_.position(std::min(k, source_.size())); }

  void step() {
    char c = at(i_);
    if (c == '\n' && depth_ == 0) statement_start_ = true;
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
      ++i_;
    } else if (c == '#') {
      while (i_ < source_.size() && at(i_) != '\n') ++i_;
    } else if (c == '\\' && (at(i_ + 1) == '\n' || (at(i_ + 1) == '\r' && at(i_ + 2) == '\n'))) {
      i_ += at(i_ + 1) == '\n' ? 2 : 3;  // explicit line joining
    } else {
      token();
    }
  }

  // `text` views source_, the stream's copy of the source. The first token of a statement
  // (a line outside brackets) moves through the branches first.
  Token make(TokenKind kind, std::string_view text, size_t start) {
    SourcePosition at = position(start);
    if (statement_start_) {
      statement_start_ = false;
      statement(kind == TokenKind::identifier ? text : std::string_view(), at.column);
    }
    if (kind == TokenKind::punct && (text == "(" || text == "[" || text == "{")) ++depth_;
    if (kind == TokenKind::punct && (text == ")" || text == "]" || text == "}") && depth_ > 0)
      --depth_;
    return Token{.text = text,
                 .position = at,
                 .condition = static_cast<uint32_t>(out_.conditions.size() - 1),
                 .kind = kind};
  }

  // A statement starting with `word` at `column`: it ends the compound statements indented
  // deeper, continues the one at its column (elif, else, except) or ends it, and may open one.
  void statement(std::string_view word, uint32_t column) {
    while (!compounds_.empty() && compounds_.back().column > column) compounds_.pop_back();
    if (!compounds_.empty() && compounds_.back().column == column) {
      Compound& top = compounds_.back();
      if (top.is_try ? word == "except" : (word == "elif" || word == "else")) {
        ++top.branch;
      } else if (top.is_try && word == "else") {
        top.branch = 0;  // runs after the try's body
      } else {
        compounds_.pop_back();  // finally, or the next statement
      }
    }
    if (word == "if" || word == "try")
      compounds_.push_back({column, next_group_++, 0, word == "try"});
    ConditionPath path;
    for (const Compound& c : compounds_) path.emplace_back(c.group, c.branch);
    if (path != out_.conditions.back()) out_.conditions.push_back(std::move(path));
  }

  void token() {
    size_t start = i_;
    auto c = static_cast<unsigned char>(at(i_));
    if (is_identifier_start(c)) {
      while (is_identifier_char(static_cast<unsigned char>(at(i_)))) ++i_;
      std::string_view id = source_.substr(start, i_ - start);
      if ((at(i_) == '"' || at(i_) == '\'') && is_string_prefix(id)) {
        string_literal(start, id);
      } else {
        out_.tokens.push_back(make(TokenKind::identifier, id, start));
      }
    } else if (c >= '0' && c <= '9') {
      while (is_identifier_char(static_cast<unsigned char>(at(i_))) || at(i_) == '.' ||
             ((at(i_ - 1) == 'e' || at(i_ - 1) == 'E') && (at(i_) == '+' || at(i_) == '-'))) {
        ++i_;
      }
      out_.tokens.push_back(make(TokenKind::other, source_.substr(start, i_ - start), start));
    } else if (c == '"' || c == '\'') {
      string_literal(start, "");
    } else {
      std::string_view two = source_.substr(i_, 2);
      size_t length = (two == "==" || two == "!=" || two == "<=" || two == ">=" || two == "->" ||
                       two == "**" || two == ":=")
                          ? 2
                          : 1;
      i_ += length;
      out_.tokens.push_back(make(TokenKind::punct, source_.substr(start, length), start));
    }
  }

  // `start` is the first byte of the prefix (or the quote); i_ is at the opening quote.
  void string_literal(size_t start, std::string_view prefix) {
    bool raw = prefix.find_first_of("rR") != std::string_view::npos;
    bool format = prefix.find_first_of("fF") != std::string_view::npos;
    char quote = at(i_);
    bool triple = at(i_ + 1) == quote && at(i_ + 2) == quote;
    i_ += triple ? 3 : 1;
    StringLiteral literal;
    while (true) {
      if (i_ >= source_.size() || (!triple && at(i_) == '\n')) {
        literal.is_static = false;  // unterminated
        break;
      }
      char c = at(i_);
      if (c == quote && (!triple || (at(i_ + 1) == quote && at(i_ + 2) == quote))) {
        literal.value.set_end(position(i_));
        i_ += triple ? 3 : 1;
        break;
      }
      if (c == '\\') {
        raw ? raw_backslash(literal) : escape(literal);
      } else if (format && (c == '{' || c == '}')) {
        if (at(i_ + 1) == c) {
          literal.value.push_back(c, position(i_));
          i_ += 2;
        } else {
          literal.is_static = false;  // a replacement field: known only at run time
          literal.value.push_back(c, position(i_));
          ++i_;
        }
      } else if (c == '\r' && at(i_ + 1) == '\n') {
        ++i_;  // universal newlines: \r\n reads as \n
      } else {
        literal.value.push_back(c, position(i_));
        ++i_;
      }
    }
    out_.add_string(make(TokenKind::string, prefix, start), std::move(literal));
  }

  // In a raw string a backslash stays, and keeps the next character (even a quote) in the string.
  void raw_backslash(StringLiteral& literal) {
    literal.value.push_back('\\', position(i_));
    ++i_;
    if (i_ < source_.size()) {
      literal.value.push_back(at(i_), position(i_));
      ++i_;
    }
  }

  void escape(StringLiteral& literal) {
    const auto [n, from, decoded] = read_shared_escape(source_, i_, position(i_), literal);
    if (decoded) return;
    switch (n) {
      case '\n': return;  // a backslash-newline inside a string joins the lines
      case '\r':
        if (at(i_) == '\n') ++i_;
        return;
      case '\\': literal.value.push_back('\\', from); return;
      case '\'': literal.value.push_back('\'', from); return;
      case '"': literal.value.push_back('"', from); return;
      case '\0': --i_; return;
      default: break;
    }
    if (n >= '0' && n <= '7') {
      literal.value.push_utf8(read_octal(source_, i_, n), from);
    } else if (n == 'x') {
      read_code_point(source_, i_, 2, from, literal);
    } else if (n == 'N') {
      literal.is_static = false;  // \N{NAME}: a character looked up by name
      literal.value.push_back('\\', from);
      literal.value.push_back('N', from);
    } else {
      literal.value.push_back('\\', from);  // unknown escapes keep their backslash
      literal.value.push_back(n, position(i_ - 1));
    }
  }

  // An `if` or `try` statement whose branches are being read.
  struct Compound {
    uint32_t column;
    uint32_t group;
    uint32_t branch;
    bool is_try;
  };

  std::shared_ptr<std::string> spelling_;  // the tokens' text, then the stream's
  std::string_view source_;
  LineTable lines_;
  size_t i_ = 0;
  size_t depth_ = 0;             // open brackets
  bool statement_start_ = true;  // the next token starts a statement
  std::vector<Compound> compounds_;
  uint32_t next_group_ = 0;
  TokenStream out_;
};

}  // namespace

TokenStream lex_python(std::string_view text) {
  TokenStream stream = PythonLexer(text).run();
  pair_brackets(stream);
  return stream;
}

}  // namespace schemac::tokens
