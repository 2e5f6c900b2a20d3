// Macro definitions and their expansion (C++ [cpp.replace] as far as names and pasting go).
#include "schemac/tokens/cpp_macros.h"

#include <cctype>

#include "schemac/tokens/calls.h"

namespace schemac::tokens {
namespace {

bool is_identifier_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;
}
bool is_identifier_char(char c) {
  return is_identifier_start(c) || std::isdigit(static_cast<unsigned char>(c));
}

bool is(const PpToken& token, std::string_view text) {
  return token.kind == TokenKind::punct && token.text == text;
}

// An identifier nobody defined that looks like a build macro (ALL-CAPS, as TORCH_EXTENSION_NAME):
// what is made of it is unknown.
void mark_unknown(PpToken& token, const MacroTable& table) {
  if (token.kind == TokenKind::identifier && !table.find(token.text) &&
      !table.known_undefined(token.text) && namespace_from_identifier(token.text).empty()) {
    token.unknown = true;
  }
}

using Arguments = std::vector<std::vector<PpToken>>;

// The arguments of the call whose '(' is at `open`; `close` gets the index of the ')'. False when
// the call is never closed.
bool read_arguments(const std::vector<PpToken>& tokens, size_t open, Arguments& arguments,
                    size_t& close, ExpansionBudget& budget) {
  arguments.assign(1, {});
  int depth = 0;
  for (size_t i = open + 1; i < tokens.size(); ++i) {
    if (!budget.spend(1)) return false;
    const PpToken& t = tokens[i];
    if (is(t, "(")) ++depth;
    if (is(t, ")")) {
      if (depth == 0) {
        close = i;
        if (arguments.size() == 1 && arguments[0].empty()) arguments.clear();
        return true;
      }
      --depth;
    }
    if (depth == 0 && is(t, ",")) {
      arguments.emplace_back();
      continue;
    }
    arguments.back().push_back(t);
  }
  return false;
}

PpToken stringify(const std::vector<PpToken>& argument) {
  std::string text = "\"";
  for (size_t i = 0; i < argument.size(); ++i) {
    if (i > 0 && argument[i].space_before) text += ' ';
    for (char c : argument[i].text) {
      if (argument[i].kind == TokenKind::string && (c == '"' || c == '\\')) text += '\\';
      text += c;
    }
  }
  return PpToken{TokenKind::string, text + "\"", false, false, 0};
}

// `a ## b`: one token spelled as both.
PpToken paste(const PpToken& a, const PpToken& b) {
  PpToken out{a.kind, a.text + b.text, a.unknown || b.unknown, a.space_before, 0};
  bool identifier = !out.text.empty() && is_identifier_start(out.text[0]);
  for (char c : out.text) identifier = identifier && is_identifier_char(c);
  if (identifier) out.kind = TokenKind::identifier;
  return out;
}

class Expander {
 public:
  Expander(const MacroTable& table, const std::set<std::string, std::less<>>& stop,
           ExpansionBudget& budget, std::set<std::string, std::less<>>* used)
      : table_(table), stop_(stop), budget_(budget), used_(used) {}

  std::vector<PpToken> expand(const std::vector<PpToken>& in, std::set<std::string>& active,
                              int depth) {
    if (depth > ExpansionBudget::kDepth && !budget_.exhausted) {
      budget_.exhausted = true;
      budget_.reached = "macros nested deeper than " + std::to_string(ExpansionBudget::kDepth);
    }
    if (budget_.exhausted) return in;
    std::vector<PpToken> out;
    for (size_t i = 0; i < in.size(); ++i) {
      if (!budget_.spend(1)) return out;
      PpToken token = in[i];
      const Macro* macro = token.kind == TokenKind::identifier && !active.count(token.text) &&
                                   !stop_.count(token.text)
                               ? table_.find(token.text)
                               : nullptr;
      if (macro && !macro->function_like) {
        append(out, replace(*macro, token.text, {}, active, depth));
        continue;
      }
      Arguments arguments;
      size_t close = 0;
      if (macro && i + 1 < in.size() && is(in[i + 1], "(") &&
          read_arguments(in, i + 1, arguments, close, budget_)) {
        if (arguments.empty() && !macro->parameters.empty()) arguments.emplace_back();
        append(out, replace(*macro, token.text, arguments, active, depth));
        i = close;
        continue;
      }
      mark_unknown(token, table_);
      out.push_back(std::move(token));
    }
    return out;
  }

 private:
  // Carrying tokens out of a nested expansion is work too: a chain of macros that each double
  // the last carries every token up through every level, so the carrying is paid from the budget.
  void append(std::vector<PpToken>& out, std::vector<PpToken> more) {
    if (!budget_.spend(more.size())) return;
    for (PpToken& t : more) out.push_back(std::move(t));
  }

  // The macro's body with its parameters replaced, pasted, then rescanned with the macro itself
  // disabled.
  std::vector<PpToken> replace(const Macro& macro, const std::string& name,
                               const Arguments& arguments, std::set<std::string>& active,
                               int depth) {
    auto parameter = [&](const PpToken& t) -> int {
      if (t.kind != TokenKind::identifier) return -1;
      for (size_t p = 0; p < macro.parameters.size(); ++p) {
        if (macro.parameters[p] == t.text) return static_cast<int>(p);
      }
      return -1;
    };
    auto argument = [&](int p) -> std::vector<PpToken> {
      if (macro.parameters[static_cast<size_t>(p)] == "__VA_ARGS__") {
        std::vector<PpToken> rest;
        for (size_t a = static_cast<size_t>(p); a < arguments.size(); ++a) {
          if (a > static_cast<size_t>(p))
            rest.push_back(PpToken{TokenKind::punct, ",", false, false, 0});
          rest.insert(rest.end(), arguments[a].begin(), arguments[a].end());
        }
        return rest;
      }
      return static_cast<size_t>(p) < arguments.size() ? arguments[static_cast<size_t>(p)]
                                                       : std::vector<PpToken>{};
    };
    const std::vector<PpToken>& body = macro.body;
    std::vector<PpToken> substituted;
    std::vector<bool> paste_after;  // substituted[k] is followed by ## in the body
    for (size_t k = 0; k < body.size(); ++k) {
      const PpToken& t = body[k];
      if (macro.function_like && is(t, "#") && k + 1 < body.size() && parameter(body[k + 1]) >= 0) {
        substituted.push_back(stringify(argument(parameter(body[k + 1]))));
        paste_after.push_back(false);
        ++k;
        continue;
      }
      if (is(t, "##")) {
        if (!paste_after.empty()) paste_after.back() = true;
        continue;
      }
      int p = macro.function_like ? parameter(t) : -1;
      if (p < 0) {
        PpToken copy = t;
        mark_unknown(copy, table_);
        substituted.push_back(std::move(copy));
        paste_after.push_back(false);
        continue;
      }
      bool pasted =
          (k > 0 && is(body[k - 1], "##")) || (k + 1 < body.size() && is(body[k + 1], "##"));
      std::vector<PpToken> value = argument(p);
      if (!pasted) value = expand(value, active, depth + 1);
      for (PpToken& v : value) {
        mark_unknown(v, table_);
        substituted.push_back(std::move(v));
        paste_after.push_back(false);
      }
      if (value.empty()) {  // a placemarker: pasting with nothing keeps the other side
        substituted.push_back(PpToken{TokenKind::other, "", false, false, 0});
        paste_after.push_back(false);
      }
    }
    std::vector<PpToken> pasted;
    for (size_t k = 0; k < substituted.size(); ++k) {
      PpToken t = substituted[k];
      if (!budget_.spend(1)) return {};
      while (k < paste_after.size() && paste_after[k] && k + 1 < substituted.size()) {
        t = paste(t, substituted[k + 1]);
        ++k;
      }
      if (!(t.kind == TokenKind::other && t.text.empty())) pasted.push_back(std::move(t));
    }
    if (used_) used_->insert(name);
    active.insert(name);
    std::vector<PpToken> out = expand(pasted, active, depth + 1);
    active.erase(name);
    return out;
  }

  const MacroTable& table_;
  const std::set<std::string, std::less<>>& stop_;
  ExpansionBudget& budget_;
  std::set<std::string, std::less<>>* used_;
};

}  // namespace

bool ExpansionBudget::spend(size_t tokens) {
  if (exhausted) return false;
  if (tokens > tokens_left) {
    tokens_left = 0;
    exhausted = true;
    reached = "more than " + std::to_string(kTokens) + " tokens";
    return false;
  }
  tokens_left -= tokens;
  return true;
}

void MacroTable::define(std::string name, Macro macro) {
  undefined_.erase(name);
  macros_[std::move(name)] = std::move(macro);
}

void MacroTable::undefine(const std::string& name) {
  macros_.erase(name);
  undefined_.insert(name);
}

const Macro* MacroTable::find(std::string_view name) const {
  auto it = macros_.find(name);
  return it == macros_.end() ? nullptr : &it->second;
}

bool MacroTable::known_undefined(std::string_view name) const {
  return undefined_.find(name) != undefined_.end();
}

void MacroTable::merge(const MacroTable& other) {
  for (const auto& [name, macro] : other.macros_) define(name, macro);
  for (const std::string& name : other.undefined_) undefine(name);
}

std::string MacroTable::define_from_text(std::string_view spec) {
  size_t end = 0;
  while (end < spec.size() && is_identifier_char(spec[end])) ++end;
  if (end == 0 || !is_identifier_start(spec[0])) {
    return "expected NAME, NAME=VALUE or NAME(ARGS)=VALUE";
  }
  std::string name(spec.substr(0, end));
  Macro macro;
  std::string_view rest = spec.substr(end);
  if (!rest.empty() && rest[0] == '(') {
    size_t close = rest.find(')');
    if (close == std::string_view::npos) return "the parameter list is not closed";
    macro.function_like = true;
    for (const PpToken& t : pp_tokenize(rest.substr(1, close - 1))) {
      if (t.kind == TokenKind::identifier) macro.parameters.push_back(t.text);
      if (is(t, "...")) macro.parameters.push_back("__VA_ARGS__");
    }
    rest = rest.substr(close + 1);
  }
  if (rest.empty()) {
    if (macro.function_like) return "a function-like macro needs '=VALUE'";
    macro.body = pp_tokenize("1");
  } else if (rest[0] == '=') {
    macro.body = pp_tokenize(rest.substr(1));
  } else {
    return "expected '=' after the name";
  }
  define(std::move(name), std::move(macro));
  return "";
}

std::optional<std::pair<std::string, Macro>> MacroTable::read_directive(std::string_view line) {
  size_t start = 0;
  while (start < line.size() && (line[start] == ' ' || line[start] == '\t')) ++start;
  size_t end = start;
  while (end < line.size() && is_identifier_char(line[end])) ++end;
  if (end == start || !is_identifier_start(line[start])) return std::nullopt;
  std::string_view rest = line.substr(end);
  std::string name(line.substr(start, end - start));
  std::string spec = name;
  if (!rest.empty() && rest[0] == '(') {
    size_t close = rest.find(')');
    if (close == std::string_view::npos) return std::nullopt;
    spec += rest.substr(0, close + 1);
    rest = rest.substr(close + 1);
  }
  MacroTable one;
  if (!one.define_from_text(spec + "=" + std::string(rest)).empty()) return std::nullopt;
  return std::pair{name, *one.find(name)};
}

void MacroTable::define_from_directive(std::string_view line) {
  if (auto read = read_directive(line)) define(std::move(read->first), std::move(read->second));
}

const MacroTable& builtin_macros() {
  static const MacroTable table = [] {
    MacroTable t;
    t.define_from_text("_CONCAT(A,B)=A##B");
    t.define_from_text("CONCAT(A,B)=_CONCAT(A,B)");
    t.define_from_text("TORCH_LIBRARY_EXPAND(NAME,MODULE)=TORCH_LIBRARY(NAME,MODULE)");
    t.define_from_text(
        "TORCH_LIBRARY_IMPL_EXPAND(NAME,DEVICE,MODULE)=TORCH_LIBRARY_IMPL(NAME,DEVICE,MODULE)");
    return t;
  }();
  return table;
}

std::vector<PpToken> pp_tokenize(std::string_view text) {
  std::vector<PpToken> out;
  bool space = false;
  for (size_t i = 0; i < text.size();) {
    char c = text[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f') {
      space = true;
      ++i;
      continue;
    }
    if (text.substr(i, 2) == "//") break;
    if (text.substr(i, 2) == "/*") {
      size_t end = text.find("*/", i + 2);
      i = end == std::string_view::npos ? text.size() : end + 2;
      space = true;
      continue;
    }
    size_t start = i;
    TokenKind kind = TokenKind::punct;
    if (is_identifier_start(c)) {
      while (i < text.size() && is_identifier_char(text[i])) ++i;
      kind = TokenKind::identifier;
    } else if (std::isdigit(static_cast<unsigned char>(c)) ||
               (c == '.' && i + 1 < text.size() &&
                std::isdigit(static_cast<unsigned char>(text[i + 1])))) {
      while (i < text.size() &&
             (is_identifier_char(text[i]) || text[i] == '.' ||
              ((text[i] == '+' || text[i] == '-') && (text[i - 1] == 'e' || text[i - 1] == 'E')))) {
        ++i;
      }
      kind = TokenKind::other;
    } else if (c == '"' || c == '\'') {
      ++i;
      while (i < text.size() && text[i] != c) i += text[i] == '\\' ? 2 : 1;
      i = std::min(i + 1, text.size());
      kind = c == '"' ? TokenKind::string : TokenKind::other;
    } else {
      static constexpr std::string_view kLong[] = {
          "...", "##", "&&", "||", "==", "!=", "<=", ">=", "<<", ">>", "::", "->"};
      size_t length = 1;
      for (std::string_view op : kLong) {
        if (text.substr(i, op.size()) == op) {
          length = op.size();
          break;
        }
      }
      i += length;
    }
    out.push_back(PpToken{kind, std::string(text.substr(start, i - start)), false, space, 0});
    space = false;
  }
  return out;
}

std::vector<PpToken> expand_macros(const std::vector<PpToken>& tokens, const MacroTable& table,
                                   const std::set<std::string, std::less<>>& stop,
                                   ExpansionBudget* budget,
                                   std::set<std::string, std::less<>>* used) {
  ExpansionBudget fresh;
  std::set<std::string> active;
  return Expander(table, stop, budget ? *budget : fresh, used).expand(tokens, active, 0);
}

}  // namespace schemac::tokens
