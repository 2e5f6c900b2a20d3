// `#if` expressions ([cpp.cond]) over three values: a number, or unknown when a name nobody
// defined is tested. `defined X` is read before macros expand; names left after expansion are 0
// only when known to be undefined (-U, #undef), else unknown. `&&`, `||` and `?:` decide without
// an unknown side when the other one does.
#include <cctype>
#include <cstdlib>

#include "schemac/tokens/cpp_macros.h"

namespace schemac::tokens {
namespace {

using Value = std::optional<long long>;

constexpr std::string_view kUnknown = "__unknown__";

bool is(const PpToken& token, std::string_view text) {
  return token.kind == TokenKind::punct && token.text == text;
}

class ConditionParser {
 public:
  explicit ConditionParser(std::vector<PpToken> tokens) : tokens_(std::move(tokens)) {}

  // nullopt when unknown or malformed.
  Value parse() {
    Value v = conditional();
    if (failed_ || i_ != tokens_.size()) return std::nullopt;
    return v;
  }

 private:
  bool accept(std::string_view op) {
    if (i_ < tokens_.size() && is(tokens_[i_], op)) {
      ++i_;
      return true;
    }
    return false;
  }

  Value conditional() {
    Value c = binary(0);
    if (!accept("?")) return c;
    Value a = conditional();
    if (!accept(":")) failed_ = true;
    Value b = conditional();
    if (!c) return a && b && *a == *b ? a : std::nullopt;
    return *c ? a : b;
  }

  static int precedence(std::string_view op) {
    static constexpr std::pair<std::string_view, int> kTable[] = {
        {"||", 1}, {"&&", 2}, {"|", 3}, {"^", 4},  {"&", 5},  {"==", 6},
        {"!=", 6}, {"<", 7},  {">", 7}, {"<=", 7}, {">=", 7}, {"<<", 8},
        {">>", 8}, {"+", 9},  {"-", 9}, {"*", 10}, {"/", 10}, {"%", 10}};
    for (const auto& [name, level] : kTable) {
      if (name == op) return level;
    }
    return 0;
  }

  Value binary(int min_level) {
    Value left = unary();
    while (i_ < tokens_.size() && tokens_[i_].kind == TokenKind::punct) {
      std::string op = tokens_[i_].text;
      int level = precedence(op);
      if (level == 0 || level <= min_level) break;
      ++i_;
      Value right = binary(level);
      left = apply(op, left, right);
    }
    return left;
  }

  static Value apply(const std::string& op, Value a, Value b) {
    if (op == "&&") {
      if ((a && *a == 0) || (b && *b == 0)) return 0;
      return a && b ? Value(1) : std::nullopt;
    }
    if (op == "||") {
      if ((a && *a != 0) || (b && *b != 0)) return 1;
      return a && b ? Value(0) : std::nullopt;
    }
    if (!a || !b) return std::nullopt;
    long long x = *a, y = *b;
    if (op == "|") return x | y;
    if (op == "^") return x ^ y;
    if (op == "&") return x & y;
    if (op == "==") return x == y;
    if (op == "!=") return x != y;
    if (op == "<") return x < y;
    if (op == ">") return x > y;
    if (op == "<=") return x <= y;
    if (op == ">=") return x >= y;
    if (op == "<<") return y >= 0 && y < 63 ? x << y : 0;
    if (op == ">>") return y >= 0 && y < 63 ? x >> y : 0;
    if (op == "+") return x + y;
    if (op == "-") return x - y;
    if (op == "*") return x * y;
    if (op == "/") return y == 0 ? std::nullopt : Value(x / y);
    return y == 0 ? std::nullopt : Value(x % y);
  }

  Value unary() {
    if (accept("!")) {
      Value v = unary();
      return v ? Value(*v == 0) : std::nullopt;
    }
    if (accept("-")) {
      Value v = unary();
      return v ? Value(-*v) : std::nullopt;
    }
    if (accept("+")) return unary();
    if (accept("~")) {
      Value v = unary();
      return v ? Value(~*v) : std::nullopt;
    }
    if (accept("(")) {
      Value v = conditional();
      if (!accept(")")) failed_ = true;
      return v;
    }
    if (i_ >= tokens_.size()) {
      failed_ = true;
      return std::nullopt;
    }
    const PpToken& t = tokens_[i_++];
    if (t.kind == TokenKind::other && !t.text.empty() &&
        std::isdigit(static_cast<unsigned char>(t.text[0]))) {
      char* end = nullptr;
      long long v = std::strtoll(t.text.c_str(), &end, 0);
      while (end && (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L')) ++end;
      if (!end || *end != '\0') return std::nullopt;  // a float or a digit separator: not read
      return v;
    }
    if (t.kind == TokenKind::identifier && t.text == kUnknown) return std::nullopt;
    if (t.kind == TokenKind::identifier) return t.unknown ? std::nullopt : Value(known_zero(t));
    failed_ = true;
    return std::nullopt;
  }

  // A name left after expansion: `true` is 1, `false` 0; any other is 0 when known undefined,
  // which the caller marked by replacing it with "0".
  static long long known_zero(const PpToken& t) { return t.text == "true" ? 1 : 0; }

  std::vector<PpToken> tokens_;
  size_t i_ = 0;
  bool failed_ = false;
};

// `defined NAME`: 1, 0, or a marker of unknown.
PpToken defined_value(const std::string& name, const MacroTable& table) {
  if (table.find(name)) return PpToken{TokenKind::other, std::string(1, '1'), false, false, 0};
  if (table.known_undefined(name))
    return PpToken{TokenKind::other, std::string(1, '0'), false, false, 0};
  return PpToken{TokenKind::identifier, std::string(kUnknown), true, false, 0};
}

}  // namespace

std::optional<bool> evaluate_condition(std::string_view expression, const MacroTable& table,
                                       ExpansionBudget* budget) {
  std::vector<PpToken> tokens = pp_tokenize(expression);
  // `defined X` and `defined(X)` first: 1, 0, or unknown.
  std::vector<PpToken> replaced;
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i].kind != TokenKind::identifier || tokens[i].text != "defined") {
      replaced.push_back(tokens[i]);
      continue;
    }
    size_t name = i + 1;
    bool parenthesised = name < tokens.size() && is(tokens[name], "(");
    if (parenthesised) ++name;
    if (name >= tokens.size() || tokens[name].kind != TokenKind::identifier) return std::nullopt;
    const std::string& macro = tokens[name].text;
    replaced.push_back(defined_value(macro, table));
    i = name;
    if (parenthesised) {
      if (i + 1 >= tokens.size() || !is(tokens[i + 1], ")")) return std::nullopt;
      ++i;
    }
  }
  ExpansionBudget fresh;
  ExpansionBudget& spent = budget ? *budget : fresh;
  std::vector<PpToken> expanded = expand_macros(replaced, table, {}, &spent);
  if (spent.exhausted) return std::nullopt;
  for (PpToken& t : expanded) {
    if (t.kind != TokenKind::identifier || t.text == "true" || t.text == "false" ||
        t.text == kUnknown) {
      continue;
    }
    // A name nobody defined: 0 for a compiler, but only known to be so when undefined explicitly.
    t.unknown = !table.known_undefined(t.text);
  }
  std::optional<long long> value = ConditionParser(std::move(expanded)).parse();
  if (!value) return std::nullopt;
  return *value != 0;
}

}  // namespace schemac::tokens
