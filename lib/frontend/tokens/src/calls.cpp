#include "schemac/tokens/calls.h"

#include <cctype>

namespace schemac::tokens {
namespace {

bool is_name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;
}

bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

// Skips "ns::name.overload" from `i`; returns the index after it, or npos when no name is there.
size_t skip_operator_name(std::string_view text, size_t i) {
  auto identifier = [&](size_t at) {
    if (at >= text.size() ||
        !(std::isalpha(static_cast<unsigned char>(text[at])) || text[at] == '_')) {
      return std::string_view::npos;
    }
    while (at < text.size() && is_name_char(text[at])) ++at;
    return at;
  };
  size_t end = identifier(i);
  if (end == std::string_view::npos) return end;
  if (text.substr(end, 2) == "::") {
    end = identifier(end + 2);
    if (end == std::string_view::npos) return end;
  }
  if (end < text.size() && text[end] == '.') {
    size_t overload = end + 1;
    while (overload < text.size() && is_name_char(text[overload])) ++overload;
    end = overload;
  }
  return end;
}

bool is_open(const Token& t) { return is_punct(t, "(") || is_punct(t, "[") || is_punct(t, "{"); }
bool is_close(const Token& t) { return is_punct(t, ")") || is_punct(t, "]") || is_punct(t, "}"); }

// Strips one pair of parentheses around the whole range.
bool strip_parentheses(const std::vector<Token>& tokens, TokenRange& range) {
  if (range.end - range.begin >= 2 && is_punct(tokens[range.begin], "(") &&
      matching_close(tokens, range.begin) == range.end - 1) {
    ++range.begin;
    --range.end;
    return true;
  }
  return false;
}

// When the range is exactly `callee(args)` and callee's last name part is one of `wrappers`,
// narrows it to the first argument.
bool strip_wrapper(const std::vector<Token>& tokens, TokenRange& range,
                   std::initializer_list<std::string_view> wrappers, bool keywords) {
  size_t i = range.begin;
  while (i < range.end && (tokens[i].kind == TokenKind::identifier || is_punct(tokens[i], "::") ||
                           is_punct(tokens[i], "."))) {
    ++i;
  }
  if (i == range.begin || i >= range.end || !is_punct(tokens[i], "(") ||
      tokens[i - 1].kind != TokenKind::identifier || matching_close(tokens, i) != range.end - 1) {
    return false;
  }
  bool known = false;
  for (std::string_view w : wrappers) known = known || tokens[i - 1].text == w;
  if (!known) return false;
  std::vector<CallArgument> arguments = call_arguments(tokens, i, keywords);
  if (arguments.empty() || !arguments[0].keyword.empty()) return false;
  range = arguments[0].range;
  return true;
}

// The operator name at the start of `text`, after blanks; none when it does not start with one.
std::optional<std::string_view> leading_operator_name(std::string_view text) {
  size_t i = 0;
  while (i < text.size() && is_blank(text[i])) ++i;
  size_t end = skip_operator_name(text, i);
  if (end == std::string_view::npos) return std::nullopt;
  return text.substr(i, end - i);
}

// Where `text` goes on after its leading operator name and the blanks after that; npos when it
// does not start with a name.
size_t after_operator_name(std::string_view text) {
  std::optional<std::string_view> name = leading_operator_name(text);
  if (!name) return std::string_view::npos;
  size_t i = static_cast<size_t>(name->data() + name->size() - text.data());
  while (i < text.size() && is_blank(text[i])) ++i;
  return i;
}

// The string tokens of `range` joined into one text: adjacent literals (C++ and Python) and, with
// `plus_joins`, literals joined by '+' (Python). A literal that is not static stops the join,
// `not_static` saying why.
std::optional<JoinedLiteral> join_strings(const TokenStream& stream, TokenRange range,
                                          bool plus_joins, const char* not_static,
                                          std::string* why_not) {
  JoinedLiteral joined;
  bool expect_string = true;
  for (size_t i = range.begin; i < range.end; ++i) {
    const Token& token = stream.tokens[i];
    if (plus_joins && is_punct(token, "+") && !expect_string) {
      expect_string = true;
      continue;
    }
    if (token.kind != TokenKind::string) {
      *why_not = "not a literal string ('" + std::string(token.text) + "' in it)";
      return std::nullopt;
    }
    const StringLiteral& literal = stream.literals[token.literal];
    if (!literal.is_static) {
      *why_not = not_static;
      return std::nullopt;
    }
    if (i == range.begin) joined.position = token.position;
    joined.text.append(literal.value);
    expect_string = false;
  }
  if (range.empty() || expect_string) {
    *why_not = range.empty() ? "no argument" : "not a literal string";
    return std::nullopt;
  }
  return joined;
}

}  // namespace

bool is_punct(const Token& token, std::string_view text) {
  return token.kind == TokenKind::punct && token.text == text;
}
bool is_identifier(const Token& token, std::string_view text) {
  return token.kind == TokenKind::identifier && token.text == text;
}

size_t matching_close(const std::vector<Token>& tokens, size_t open) {
  return open < tokens.size() && is_open(tokens[open]) ? tokens[open].partner : tokens.size();
}

size_t matching_open(const std::vector<Token>& tokens, size_t close) {
  return close < tokens.size() && is_close(tokens[close]) ? tokens[close].partner : tokens.size();
}

size_t token_bound(std::string_view text) {
  auto continues_name = [](unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '$' || c >= 0x80;
  };
  size_t count = 0;
  bool in_name = false;
  for (char c : text) {
    auto u = static_cast<unsigned char>(c);
    bool name = continues_name(u);
    bool blank = u == ' ' || u == '\t' || u == '\n' || u == '\r' || u == '\v' || u == '\f';
    if (!blank && !(name && in_name)) ++count;
    in_name = name;
  }
  return count;
}

void pair_brackets(TokenStream& stream) {
  std::vector<Token>& tokens = stream.tokens;
  auto none = static_cast<uint32_t>(tokens.size());
  std::vector<uint32_t> code;   // open brackets of the code (stream 0)
  std::vector<uint32_t> macro;  // open brackets of the current #define body
  uint32_t current_macro = 0;
  for (size_t i = 0; i < tokens.size(); ++i) {
    Token& token = tokens[i];
    token.partner = none;
    if (token.stream != current_macro) {
      macro.clear();
      current_macro = token.stream;
    }
    std::vector<uint32_t>& open = token.stream == 0 ? code : macro;
    if (is_open(token)) {
      open.push_back(static_cast<uint32_t>(i));
    } else if (is_close(token) && !open.empty()) {
      token.partner = open.back();
      tokens[open.back()].partner = static_cast<uint32_t>(i);
      open.pop_back();
    }
  }
}

std::vector<CallArgument> call_arguments(const std::vector<Token>& tokens, size_t open,
                                         bool keywords, size_t* close) {
  std::vector<CallArgument> arguments;
  size_t end = matching_close(tokens, open);
  if (close) *close = end;
  if (end >= tokens.size()) return arguments;  // never closed: broken code, nothing to read
  size_t start = open + 1;
  size_t depth = 0;
  for (size_t i = open + 1; i <= end; ++i) {
    bool last = i == end;
    if (!last && is_open(tokens[i])) ++depth;
    if (!last && is_close(tokens[i]) && depth > 0) --depth;
    if (last || (depth == 0 && is_punct(tokens[i], ","))) {
      CallArgument argument{{start, i}, ""};
      if (keywords && i - start >= 2 && tokens[start].kind == TokenKind::identifier &&
          is_punct(tokens[start + 1], "=")) {
        argument.keyword = tokens[start].text;
        argument.range.begin = start + 2;
      }
      if (!argument.range.empty() || !last) arguments.push_back(argument);
      start = i + 1;
    }
    if (last) break;
  }
  return arguments;
}

const CallArgument* find_argument(const std::vector<CallArgument>& arguments, size_t index,
                                  std::string_view name) {
  size_t positional = 0;
  for (const CallArgument& argument : arguments) {
    if (!name.empty() && argument.keyword == name) return &argument;
  }
  for (const CallArgument& argument : arguments) {
    if (!argument.keyword.empty()) continue;
    if (positional++ == index) return &argument;
  }
  return nullptr;
}

std::string name_ending_at(const std::vector<Token>& tokens, size_t last, size_t* first) {
  size_t i = last;
  while (i >= 2 && (is_punct(tokens[i - 1], ".") || is_punct(tokens[i - 1], "::")) &&
         tokens[i - 2].kind == TokenKind::identifier &&
         tokens[i - 2].stream == tokens[last].stream) {
    i -= 2;
  }
  if (first) *first = i;
  std::string name;
  for (size_t k = i; k <= last; ++k) name += tokens[k].text;
  return name;
}

std::optional<JoinedLiteral> join_cpp_literal(const TokenStream& stream, TokenRange range,
                                              std::string* why_not) {
  while (strip_parentheses(stream.tokens, range) ||
         strip_wrapper(stream.tokens, range,
                       {"TORCH_SELECTIVE_SCHEMA", "TORCH_SELECTIVE_NAME", "schema"}, false)) {
  }
  return join_strings(stream, range, false, "the string literal is not complete", why_not);
}

std::optional<JoinedLiteral> join_python_literal(const TokenStream& stream, TokenRange range,
                                                 std::string* why_not) {
  const std::vector<Token>& tokens = stream.tokens;
  bool strip = false;
  while (true) {
    if (strip_parentheses(tokens, range) ||
        strip_wrapper(tokens, range, {"dedent", "cleandoc"}, true)) {
      continue;
    }
    // "...".strip() and friends: whitespace does not change a schema.
    if (range.end - range.begin >= 4 && is_punct(tokens[range.end - 1], ")") &&
        is_punct(tokens[range.end - 2], "(") &&
        tokens[range.end - 3].kind == TokenKind::identifier &&
        (tokens[range.end - 3].text == "strip" || tokens[range.end - 3].text == "lstrip" ||
         tokens[range.end - 3].text == "rstrip") &&
        is_punct(tokens[range.end - 4], ".")) {
      range.end -= 4;
      strip = true;
      continue;
    }
    break;
  }
  std::optional<JoinedLiteral> joined = join_strings(
      stream, range, true, "an f-string or an incomplete literal: known only at run time", why_not);
  if (joined && strip) joined->text.strip();
  return joined;
}

bool looks_like_schema(std::string_view text) {
  size_t i = after_operator_name(text);
  return i < text.size() && text[i] == '(';
}

bool looks_like_operator_name(std::string_view text) {
  return after_operator_name(text) == text.size();
}

std::string written_namespace(std::string_view text) {
  std::optional<std::string_view> name = leading_operator_name(text);
  size_t colons = name ? name->find("::") : std::string_view::npos;
  return colons == std::string_view::npos ? "" : std::string(name->substr(0, colons));
}

std::string operator_name_in(std::string_view text) {
  std::optional<std::string_view> name = leading_operator_name(text);
  return name ? std::string(*name) : "";
}

std::string namespace_from_identifier(std::string_view identifier) {
  size_t letters = 0;
  for (char c : identifier) {
    if (std::islower(static_cast<unsigned char>(c))) return std::string(identifier);
    if (std::isupper(static_cast<unsigned char>(c))) ++letters;
  }
  return letters >= 3 ? "" : std::string(identifier);
}

}  // namespace schemac::tokens
