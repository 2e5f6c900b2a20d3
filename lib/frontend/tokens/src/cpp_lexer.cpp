// The C++ tokenizer: translation phases 1-3 as far as finding string literals needs them.
// Line splices (backslash-newline) are removed first, except inside raw strings, where the
// standard reverts them; comments are skipped; preprocessor conditionals are tracked so that
// definitions in different #if branches are known not to clash, and a branch whose condition is
// decided false (every name it tests known: cpp_macros.h) is left out as a compiler leaves it
// out; the body of a #define is lexed as its own stream (a registration call inside a macro body
// is still found) and the macro recorded, its string literals linked to the body's tokens so that
// an expansion still knows where each byte of them was written.
#include <algorithm>
#include <string_view>

#include "schemac/tokens/cpp_macros.h"
#include "schemac/tokens/token.h"

namespace schemac::tokens {
namespace {

bool is_identifier_start(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c >= 0x80;
}
bool is_identifier_char(unsigned char c) {
  return is_identifier_start(c) || (c >= '0' && c <= '9');
}
bool is_digit(char c) { return c >= '0' && c <= '9'; }

bool is_string_prefix(std::string_view id) {
  return id == "u8" || id == "u" || id == "U" || id == "L" || id == "R" || id == "u8R" ||
         id == "uR" || id == "UR" || id == "LR";
}

class CppLexer {
 public:
  CppLexer(std::string_view source, const MacroTable* predefined,
           std::vector<MacroDirective>* directives, ExpansionBudget* budget)
      : source_(source),
        lines_(source),
        spelling_(std::make_shared<std::string>()),
        logical_(*spelling_),
        directives_(directives),
        budget_(budget ? *budget : own_budget_) {
    macros_.merge(builtin_macros());
    if (predefined) macros_.merge(*predefined);
    splice_lines();
    out_.tokens.reserve(token_bound(logical_));
  }

  TokenStream run() {
    while (i_ < logical_.size()) step();
    finish_define();
    out_.spellings.push_back(std::move(spelling_));
    return std::move(out_);
  }

 private:
  // Phase 2: the text without backslash-newline pairs, and where each byte was.
  void splice_lines() {
    logical_.reserve(source_.size());
    physical_.reserve(source_.size() + 1);
    for (size_t p = 0; p < source_.size(); ++p) {
      if (source_[p] == '\\') {
        size_t q = p + 1;
        if (q < source_.size() && source_[q] == '\r') ++q;
        if (q < source_.size() && source_[q] == '\n') {
          p = q;
          continue;
        }
      }
      logical_.push_back(source_[p]);
      physical_.push_back(static_cast<uint32_t>(p));
    }
    physical_.push_back(static_cast<uint32_t>(source_.size()));
  }

  char at(size_t k) const { return k < logical_.size() ? logical_[k] : '\0'; }
  std::string_view view(size_t start, size_t length) const {
    return std::string_view(logical_).substr(start, length);
  }
  SourcePosition position(size_t k) const {
    return lines_.position(physical_[std::min(k, logical_.size())]);
  }

  void step() {
    char c = at(i_);
    if (c == '\n') {
      line_start_ = true;
      finish_define();
      stream_ = 0;
      ++i_;
    } else if (c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f') {
      ++i_;
    } else if (c == '/' && at(i_ + 1) == '/') {
      while (i_ < logical_.size() && at(i_) != '\n') ++i_;
    } else if (c == '/' && at(i_ + 1) == '*') {
      skip_block_comment();
    } else if (c == '#' && line_start_) {
      directive();
    } else {
      line_start_ = false;
      size_t tokens = out_.tokens.size();
      size_t literals = out_.literals.size();
      token();
      if (excluded()) {  // lexed all the same: a string or comment may hold a '#' or a quote
        out_.tokens.resize(tokens);
        out_.literals.resize(literals);
      }
    }
  }

  // One #if group being read: whether a branch was taken for sure, whether the current branch is
  // decided false, and whether every branch so far was decided (none unknown).
  struct Group {
    bool taken = false;
    bool excluded = false;
    bool all_decided = true;
  };

  bool excluded() const {
    for (const Group& g : groups_) {
      if (g.excluded) return true;
    }
    return false;
  }

  // Enters the branch whose condition is `value` (nullopt: unknown).
  void branch(Group& group, std::optional<bool> value) {
    if (group.taken) {
      group.excluded = true;
    } else if (value && !*value) {
      group.excluded = true;
    } else {
      group.excluded = false;
      if (value) group.taken = true;
      if (!value) group.all_decided = false;
    }
    if (!value && !group.taken) group.all_decided = false;
  }

  // The rest of the directive's line, comments and all (pp_tokenize skips them).
  std::string_view rest_of_line() const {
    size_t end = logical_.find('\n', i_);
    if (end == std::string::npos) end = logical_.size();
    return std::string_view(logical_).substr(i_, end - i_);
  }

  std::optional<bool> condition_value(std::string_view name) const {
    if (name == "if" || name == "elif") {
      std::optional<bool> value = evaluate_condition(rest_of_line(), macros_, &budget_);
      if (budget_.exhausted && budget_.where.line == 0) budget_.where = position(i_);
      return value;
    }
    std::vector<PpToken> words = pp_tokenize(rest_of_line());
    if (words.empty() || words[0].kind != TokenKind::identifier) return std::nullopt;
    std::optional<bool> defined;
    if (macros_.find(words[0].text)) defined = true;
    if (macros_.known_undefined(words[0].text)) defined = false;
    if (!defined) return std::nullopt;
    bool positive = name == "ifdef" || name == "elifdef";
    return positive ? *defined : !*defined;
  }

  void skip_block_comment() {
    size_t end = logical_.find("*/", i_ + 2);
    i_ = end == std::string::npos ? logical_.size() : end + 2;
  }

  void skip_rest_of_line() {
    while (i_ < logical_.size() && at(i_) != '\n') {
      if (at(i_) == '/' && at(i_ + 1) == '*') {
        skip_block_comment();
      } else if (at(i_) == '/' && at(i_ + 1) == '/') {
        while (i_ < logical_.size() && at(i_) != '\n') ++i_;
      } else {
        ++i_;
      }
    }
  }

  void directive() {
    line_start_ = false;
    ++i_;
    while (at(i_) == ' ' || at(i_) == '\t') ++i_;
    size_t start = i_;
    while (is_identifier_char(static_cast<unsigned char>(at(i_)))) ++i_;
    std::string_view name(logical_.data() + start, i_ - start);
    if (name == "define") {
      if (excluded()) {
        skip_rest_of_line();
        return;
      }
      pending_ = MacroTable::read_directive(rest_of_line());
      pending_position_ = position(start);
      stream_ = ++defines_;
      body_start_ = out_.tokens.size();
      return;  // the body is lexed as tokens of its own stream; finish_define() defines it
    }
    if (name == "undef" && !excluded()) {
      std::vector<PpToken> words = pp_tokenize(rest_of_line());
      if (!words.empty() && words[0].kind == TokenKind::identifier) {
        macros_.undefine(words[0].text);
        record(MacroDirective{static_cast<uint32_t>(out_.tokens.size()), 0, position(start),
                              words[0].text, std::nullopt});
      }
    }
    if (name == "if" || name == "ifdef" || name == "ifndef") {
      bool outer_excluded = excluded();
      groups_.emplace_back();
      if (outer_excluded) {
        groups_.back().taken = true;  // nothing inside an excluded branch counts
        groups_.back().excluded = true;
      } else {
        branch(groups_.back(), condition_value(name));
      }
      conditions_.emplace_back(next_group_++, 0);
      out_.conditions.push_back(conditions_);
    } else if (name == "elif" || name == "else" || name == "elifdef" || name == "elifndef") {
      if (!groups_.empty()) {
        Group& group = groups_.back();
        group.excluded = false;  // evaluated with the outer groups only
        bool outer_excluded = excluded();
        std::optional<bool> value = name == "else"                  ? std::optional<bool>(true)
                                    : group.taken || outer_excluded ? std::optional<bool>(false)
                                                                    : condition_value(name);
        if (outer_excluded) {
          group.excluded = true;
        } else {
          branch(group, value);
        }
      }
      if (!conditions_.empty()) ++conditions_.back().second;
      out_.conditions.push_back(conditions_);
    } else if (name == "endif") {
      if (!groups_.empty()) groups_.pop_back();
      if (!conditions_.empty()) conditions_.pop_back();
      out_.conditions.push_back(conditions_);
    }
    skip_rest_of_line();
  }

  // `text` views logical_ (or a literal).
  Token make(TokenKind kind, std::string_view text, size_t start) {
    return Token{.text = text,
                 .position = position(start),
                 .condition = static_cast<uint32_t>(out_.conditions.size() - 1),
                 .stream = stream_,
                 .kind = kind};
  }

  void record(MacroDirective directive) {
    if (directives_) directives_->push_back(std::move(directive));
  }

  // The end of a #define line: its string literals are linked, in order, to the string tokens of
  // its body's stream (when both readings agree on them), and the macro is defined.
  void finish_define() {
    if (stream_ == 0 || !pending_) {
      pending_.reset();
      return;
    }
    auto& [name, macro] = *pending_;
    std::vector<uint32_t> strings;
    for (size_t t = body_start_; t < out_.tokens.size(); ++t) {
      if (out_.tokens[t].kind == TokenKind::string) strings.push_back(static_cast<uint32_t>(t));
    }
    size_t count = 0;
    for (const PpToken& token : macro.body) count += token.kind == TokenKind::string ? 1 : 0;
    if (count == strings.size()) {
      size_t next = 0;
      for (PpToken& token : macro.body) {
        if (token.kind == TokenKind::string) token.source = strings[next++] + 1;
      }
    }
    record(MacroDirective{static_cast<uint32_t>(body_start_), stream_, pending_position_, name,
                          macro});
    macros_.define(std::move(name), std::move(macro));
    pending_.reset();
  }

  void token() {
    size_t start = i_;
    auto c = static_cast<unsigned char>(at(i_));
    if (is_identifier_start(c)) {
      while (is_identifier_char(static_cast<unsigned char>(at(i_)))) ++i_;
      std::string_view id = view(start, i_ - start);
      if (at(i_) == '"' && is_string_prefix(id)) {
        string_literal(start, id);
      } else if (at(i_) == '\'' && (id == "u8" || id == "u" || id == "U" || id == "L")) {
        character_literal(start);
      } else {
        out_.tokens.push_back(make(TokenKind::identifier, id, start));
      }
    } else if (is_digit(static_cast<char>(c)) || (c == '.' && is_digit(at(i_ + 1)))) {
      number(start);
    } else if (c == '"') {
      string_literal(start, "");
    } else if (c == '\'') {
      character_literal(start);
    } else {
      std::string_view two(logical_.data() + i_, std::min<size_t>(2, logical_.size() - i_));
      size_t length = (two == "::" || two == "->" || two == "##") ? 2 : 1;
      i_ += length;
      out_.tokens.push_back(make(TokenKind::punct, view(start, length), start));
    }
  }

  // A pp-number: digits, letters, '.', digit separators and signed exponents.
  void number(size_t start) {
    while (i_ < logical_.size()) {
      char c = at(i_);
      if ((c == 'e' || c == 'E' || c == 'p' || c == 'P') &&
          (at(i_ + 1) == '+' || at(i_ + 1) == '-')) {
        i_ += 2;
      } else if (c == '\'' && is_identifier_char(static_cast<unsigned char>(at(i_ + 1)))) {
        i_ += 2;
      } else if (is_identifier_char(static_cast<unsigned char>(c)) || c == '.') {
        ++i_;
      } else {
        break;
      }
    }
    out_.tokens.push_back(make(TokenKind::other, view(start, i_ - start), start));
  }

  void character_literal(size_t start) {
    while (at(i_) != '\'') ++i_;  // the prefix, if any
    ++i_;
    while (i_ < logical_.size() && at(i_) != '\'' && at(i_) != '\n') i_ += at(i_) == '\\' ? 2 : 1;
    if (at(i_) == '\'') ++i_;
    out_.tokens.push_back(make(TokenKind::other, "'", start));
  }

  // `start` is the first byte of the prefix (or the quote); i_ is at the opening quote.
  void string_literal(size_t start, std::string_view prefix) {
    StringLiteral literal;
    if (!prefix.empty() && prefix.back() == 'R') {
      raw_body(literal);
    } else {
      quoted_body(literal);
    }
    literal.value.set_end(position(i_ == 0 ? 0 : i_ - 1));
    // A user-defined literal suffix ("..."sv) belongs to the token.
    if (is_identifier_start(static_cast<unsigned char>(at(i_)))) {
      while (is_identifier_char(static_cast<unsigned char>(at(i_)))) ++i_;
    }
    out_.add_string(make(TokenKind::string, prefix, start), std::move(literal));
  }

  void quoted_body(StringLiteral& literal) {
    ++i_;  // the opening quote
    while (true) {
      if (i_ >= logical_.size() || at(i_) == '\n') {
        literal.is_static = false;  // unterminated
        return;
      }
      char c = at(i_);
      if (c == '"') {
        ++i_;
        return;
      }
      if (c == '\\') {
        escape(literal);
      } else {
        literal.value.push_back(c, position(i_));
        ++i_;
      }
    }
  }

  void escape(StringLiteral& literal) {
    const auto [n, from, decoded] = read_shared_escape(logical_, i_, position(i_), literal);
    if (decoded) return;
    if (n == '\n' || n == '\0') {
      --i_;
      literal.is_static = false;
      return;  // the line ends
    }
    if (n >= '0' && n <= '7') {
      literal.value.push_back(static_cast<char>(read_octal(logical_, i_, n) & 0xff), from);
    } else if (n == 'x') {
      uint32_t value = 0;
      if (read_hex(logical_, i_, std::string::npos, value) == 0 || value > 0xff)
        literal.is_static = false;
      literal.value.push_back(static_cast<char>(value & 0xff), from);
    } else {
      literal.value.push_back(n, from);  // \\ \" \' \? and unknown escapes: the character itself
    }
  }

  // R"delim( ... )delim": read from the original bytes, where splices and escapes do not apply.
  void raw_body(StringLiteral& literal) {
    size_t p = physical_[i_] + 1;
    size_t open = p;
    while (open < source_.size() && open - p <= 16 && source_[open] != '(' &&
           source_[open] != ')' && source_[open] != '\\' && source_[open] != ' ' &&
           source_[open] != '\n' && source_[open] != '"') {
      ++open;
    }
    if (open >= source_.size() || source_[open] != '(' || open - p > 16) {
      literal.is_static = false;
      quoted_body(literal);
      return;
    }
    std::string closing = ")" + std::string(source_.substr(p, open - p)) + "\"";
    size_t close = source_.find(closing, open + 1);
    size_t body_end = close == std::string_view::npos ? source_.size() : close;
    for (size_t q = open + 1; q < body_end; ++q) {
      if (source_[q] == '\r' && q + 1 < body_end && source_[q + 1] == '\n') continue;
      literal.value.push_back(source_[q], lines_.position(q));
    }
    if (close == std::string_view::npos) literal.is_static = false;
    size_t after = close == std::string_view::npos ? source_.size() : close + closing.size();
    i_ = static_cast<size_t>(std::lower_bound(physical_.begin(), physical_.end(), after) -
                             physical_.begin());
  }

  std::string_view source_;
  LineTable lines_;
  std::shared_ptr<std::string> spelling_;  // owns logical_, then the stream does
  std::string& logical_;
  std::vector<uint32_t> physical_;
  size_t i_ = 0;
  bool line_start_ = true;
  uint32_t stream_ = 0;
  uint32_t defines_ = 0;
  uint32_t next_group_ = 0;
  ConditionPath conditions_;
  std::vector<Group> groups_;
  MacroTable macros_;
  std::optional<std::pair<std::string, Macro>> pending_;  // the #define being lexed
  SourcePosition pending_position_;
  size_t body_start_ = 0;  // its body's first token
  std::vector<MacroDirective>* directives_;
  ExpansionBudget own_budget_;
  ExpansionBudget& budget_;
  TokenStream out_;
};

}  // namespace

LineTable::LineTable(std::string_view text) {
  starts_.push_back(0);
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') starts_.push_back(i + 1);
  }
}

SourcePosition LineTable::position(size_t offset) const {
  auto it = std::upper_bound(starts_.begin(), starts_.end(), offset);
  size_t line = static_cast<size_t>(it - starts_.begin());  // >= 1: starts_[0] == 0
  return {static_cast<uint32_t>(line), static_cast<uint32_t>(offset - starts_[line - 1] + 1)};
}

TokenStream lex_cpp(std::string_view text, const MacroTable* predefined,
                    std::vector<MacroDirective>* directives, ExpansionBudget* budget) {
  TokenStream stream = CppLexer(text, predefined, directives, budget).run();
  pair_brackets(stream);
  return stream;
}

}  // namespace schemac::tokens
