// Namespaces and namespace-scope functions of C++ code (cpp_scopes.h).
#include "schemac/tokens/cpp_scopes.h"

#include <algorithm>
#include <array>

#include "schemac/tokens/calls.h"

namespace schemac::tokens {
namespace {

// Words that are followed by '(' but name no function.
constexpr std::array<std::string_view, 14> kNotFunctions = {
    "if",      "while",    "for",           "switch", "return",   "sizeof",  "decltype",
    "alignof", "noexcept", "static_assert", "catch",  "operator", "alignas", "__attribute__"};

// Words before a name that make the statement no declaration of it.
constexpr std::array<std::string_view, 6> kNotTypes = {"return", "else",  "case",
                                                       "new",    "throw", "delete"};

bool before(SourcePosition a, SourcePosition b) {
  return a.line < b.line || (a.line == b.line && a.column < b.column);
}

class ScopeReader {
 public:
  explicit ScopeReader(const TokenStream& stream) : tokens_(stream.tokens) {}

  CppScopes run() {
    walk(0, tokens_.size());
    return std::move(out_);
  }

 private:
  size_t close_of(size_t open, size_t end) const {
    size_t close = tokens_[open].partner;
    return close > open && close < end ? close : end;
  }

  void walk(size_t begin, size_t end) {
    size_t statement = begin;  // the first token of the declaration being read
    for (size_t i = begin; i < end; ++i) {
      const Token& t = tokens_[i];
      if (t.stream != 0) continue;
      if (is_punct(t, ";")) {
        statement = i + 1;
      } else if (is_identifier(t, "namespace")) {
        i = namespace_block(i, end);
        statement = i + 1;
      } else if (is_punct(t, "{")) {
        size_t close = close_of(i, end);
        // extern "C" { ... }: still namespace scope.
        if (i >= 2 && tokens_[i - 1].kind == TokenKind::string &&
            is_identifier(tokens_[i - 2], "extern"))
          walk(i + 1, close);
        i = close;
        statement = i + 1;
      } else if (is_punct(t, "(")) {
        i = maybe_function(i, statement, end, statement);
      }
    }
  }

  // `namespace [a::b] {` at `at`: its block read; returns the index to go on from.
  size_t namespace_block(size_t at, size_t end) {
    size_t j = at + 1;
    std::string name;
    while (j < end && (tokens_[j].kind == TokenKind::identifier || is_punct(tokens_[j], "::"))) {
      name += tokens_[j].text;
      ++j;
    }
    if (j >= end || !is_punct(tokens_[j], "{")) return j;  // `namespace x = y;`, a using
    size_t close = close_of(j, end);
    const std::string outer = namespace_;
    const bool outer_anonymous = anonymous_;
    if (name.empty()) {
      anonymous_ = true;
    } else {
      namespace_ = outer.empty() ? name : outer + "::" + name;
    }
    SourcePosition last =
        close < tokens_.size() ? tokens_[close].position : tokens_.back().position;
    out_.blocks.push_back({tokens_[j].position, last, namespace_});
    walk(j + 1, close);
    namespace_ = outer;
    anonymous_ = outer_anonymous;
    return close;
  }

  // A '(' at `open` at namespace scope: a function's declaration or definition when a name and a
  // type come before it. Returns the index to go on from; `statement` is moved past it.
  size_t maybe_function(size_t open, size_t first, size_t end, size_t& statement) {
    size_t close = close_of(open, end);
    if (open == 0 || tokens_[open - 1].kind != TokenKind::identifier) return close;
    size_t name = open - 1;
    std::string_view word = tokens_[name].text;
    if (std::find(kNotFunctions.begin(), kNotFunctions.end(), word) != kNotFunctions.end())
      return close;
    size_t start = name;  // `ns::name(`: an out-of-line definition, qualified
    std::string qualifier;
    while (start >= first + 2 && is_punct(tokens_[start - 1], "::") &&
           tokens_[start - 2].kind == TokenKind::identifier) {
      qualifier = std::string(tokens_[start - 2].text) + "::" + qualifier;
      start -= 2;
    }
    if (start <= first) return close;  // nothing before the name: a macro's use, a call
    const Token& type = tokens_[start - 1];
    bool typed = type.kind == TokenKind::identifier
                     ? std::find(kNotTypes.begin(), kNotTypes.end(), type.text) == kNotTypes.end()
                     : is_punct(type, ">") || is_punct(type, "*") || is_punct(type, "&") ||
                           is_punct(type, "&&");
    if (!typed) return close;
    // After the parameters: qualifiers, a trailing return type; then a body or a ';'.
    size_t j = close + 1;
    while (j < end && !is_punct(tokens_[j], "{") && !is_punct(tokens_[j], ";") &&
           !is_punct(tokens_[j], "=") && !is_punct(tokens_[j], ",") && !is_punct(tokens_[j], "(") &&
           !is_punct(tokens_[j], ":"))
      ++j;
    if (j >= end || !(is_punct(tokens_[j], "{") || is_punct(tokens_[j], ";"))) return close;
    CppFunction function;
    function.position = tokens_[name].position;
    function.name = std::string(word);
    qualifier = qualifier.empty() ? "" : qualifier.substr(0, qualifier.size() - 2);
    function.cpp_namespace = namespace_.empty() || qualifier.empty()
                                 ? namespace_ + qualifier
                                 : namespace_ + "::" + qualifier;
    function.anonymous = anonymous_;
    for (size_t k = first; k < start; ++k)
      function.is_static = function.is_static || is_identifier(tokens_[k], "static");
    function.defined = is_punct(tokens_[j], "{");
    out_.functions.push_back(std::move(function));
    size_t next = function_end(j, end);
    statement = next + 1;
    return next;
  }

  size_t function_end(size_t at, size_t end) const {
    return is_punct(tokens_[at], "{") ? close_of(at, end) : at;
  }

  const std::vector<Token>& tokens_;
  std::string namespace_;
  bool anonymous_ = false;
  CppScopes out_;
};

}  // namespace

std::string CppScopes::namespace_at(SourcePosition position) const {
  std::string name;
  for (const CppNamespaceBlock& block : blocks) {
    if (before(block.begin, position) && before(position, block.end)) name = block.name;
  }
  return name;
}

CppScopes read_cpp_scopes(const TokenStream& stream) {
  if (stream.tokens.empty()) return {};
  return ScopeReader(stream).run();
}

}  // namespace schemac::tokens
