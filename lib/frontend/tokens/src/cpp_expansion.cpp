// The code after preprocessing (cpp_expansion.h): one pass over the lexed tokens, replaying the
// file's #define and #undef lines in order, expanding each use of a macro with cpp_macros.h's
// expander, and turning what it made back into tokens.
#include "schemac/tokens/cpp_expansion.h"

#include <algorithm>
#include <map>
#include <set>

#include "schemac/tokens/calls.h"

namespace schemac::tokens {
namespace {

const std::set<std::string, std::less<>>& block_macros() {
  static const std::set<std::string, std::less<>> names = {
      "TORCH_LIBRARY",        "TORCH_LIBRARY_FRAGMENT",        "TORCH_LIBRARY_IMPL",
      "STABLE_TORCH_LIBRARY", "STABLE_TORCH_LIBRARY_FRAGMENT", "STABLE_TORCH_LIBRARY_IMPL"};
  return names;
}

// The punctuation the C++ lexer keeps whole; the preprocessor's other multi-character operators
// (&&, ==, ..., <<) are single characters to the call finders, as the lexer makes them.
bool lexer_keeps_whole(std::string_view punct) {
  return punct == "::" || punct == "->" || punct == "##";
}

class CodeExpander {
 public:
  CodeExpander(TokenStream& lexed, const MacroTable* predefined,
               const std::vector<MacroDirective>& directives, ExpansionBudget& budget)
      : lexed_(lexed), directives_(directives), budget_(budget) {
    live_.merge(builtin_macros());
    if (predefined) live_.merge(*predefined);
    for (const MacroDirective& d : directives_) {
      if (d.macro) body_of_[d.stream] = &d;
    }
  }

  ExpandedCode run() {
    const std::vector<Token>& in = lexed_.tokens;
    out_.tokens.reserve(in.size());
    size_t next_directive = 0;
    for (size_t i = 0; i < in.size(); ++i) {
      while (next_directive < directives_.size() && directives_[next_directive].token <= i) {
        apply(directives_[next_directive++]);
      }
      const Token& token = in[i];
      if (token.stream != 0) {
        keep(i);
        continue;
      }
      size_t close = 0;
      if (token.kind == TokenKind::identifier && invocation_end(i, close)) {
        if (block_macros().count(token.text)) {
          block_invocation(i, close);
        } else {
          macro_use(i, close);
        }
        i = close;
        continue;
      }
      keep(i);
    }
    drop_used_bodies();
    out_.conditions = std::move(lexed_.conditions);
    out_.spellings = lexed_.spellings;
    if (!made_.empty()) {
      auto made = std::make_shared<std::string>();
      for (const std::string& text : made_) *made += text;
      size_t offset = 0;
      for (size_t k = 0; k < made_views_.size(); ++k) {
        out_.tokens[made_views_[k]].text = std::string_view(*made).substr(offset, made_[k].size());
        offset += made_[k].size();
      }
      out_.spellings.push_back(std::move(made));
    }
    pair_brackets(out_);
    return ExpandedCode{std::move(out_), std::move(stopped_)};
  }

 private:
  void apply(const MacroDirective& d) {
    if (d.macro) {
      live_.define(d.name, *d.macro);
      live_stream_[d.name] = d.stream;
    } else {
      live_.undefine(d.name);
      live_stream_.erase(d.name);
    }
  }

  // Whether the identifier at `i` is a use to expand; `close` gets its last token (the ')' of a
  // function-like macro's arguments, or `i`).
  bool invocation_end(size_t i, size_t& close) const {
    if (stopped_) return false;
    const std::vector<Token>& in = lexed_.tokens;
    bool block = block_macros().count(in[i].text) > 0;
    const Macro* macro = block ? nullptr : live_.find(in[i].text);
    if (!block && !macro) return false;
    if (macro && !macro->function_like) {
      close = i;
      return true;
    }
    if (i + 1 >= in.size() || in[i + 1].stream != 0 || !is_punct(in[i + 1], "(")) return false;
    close = in[i + 1].partner;
    return close < in.size();
  }

  // The tokens [begin, end) of the code as preprocessing tokens, each linked to its source.
  std::vector<PpToken> pp_tokens(size_t begin, size_t end) const {
    std::vector<PpToken> out;
    for (size_t k = begin; k < end; ++k) {
      const Token& t = lexed_.tokens[k];
      if (t.stream != 0) continue;
      std::string text(t.text);
      if (t.kind == TokenKind::string) text += spelled(lexed_.literals[t.literal]);
      out.push_back(
          PpToken{t.kind, std::move(text), t.unknown, false, static_cast<uint32_t>(k + 1)});
    }
    return out;
  }

  // A literal's value spelled as a string literal again (what `#` stringifies; the linked literal
  // is what a call finder reads).
  static std::string spelled(const StringLiteral& literal) {
    std::string out = "\"";
    for (char c : literal.value.text()) {
      if (c == '"' || c == '\\') out += '\\';
      if (c == '\n') {
        out += "\\n";
        continue;
      }
      out += c;
    }
    return out + "\"";
  }

  // TORCH_LIBRARY(ns, m) stringifies its namespace as written: an ALL-CAPS name nobody defined is
  // taken for the build's macro (unknown). The FRAGMENT and IMPL forms expand their arguments.
  void block_invocation(size_t name, size_t close) {
    const std::vector<Token>& in = lexed_.tokens;
    bool stringifies = in[name].text == "TORCH_LIBRARY" || in[name].text == "STABLE_TORCH_LIBRARY";
    keep(name);
    keep(name + 1);
    std::vector<CallArgument> arguments = call_arguments(in, name + 1, false);
    for (size_t a = 0; a < arguments.size(); ++a) {
      TokenRange range = arguments[a].range;
      if (stringifies) {
        for (size_t k = range.begin; k < range.end; ++k) keep(k);
        if (a == 0 && range.end == range.begin + 1 &&
            in[range.begin].kind == TokenKind::identifier && !live_.find(in[range.begin].text)) {
          out_.tokens.back().unknown = namespace_from_identifier(in[range.begin].text).empty();
        }
      } else if (!expand_into(pp_tokens(range.begin, range.end), in[range.begin], in[name].text)) {
        for (size_t k = range.begin; k < range.end; ++k) keep(k);
      }
      if (range.end < close) keep(range.end);  // the comma
    }
    keep(close);
  }

  void macro_use(size_t name, size_t close) {
    if (!expand_into(pp_tokens(name, close + 1), lexed_.tokens[name], lexed_.tokens[name].text)) {
      for (size_t k = name; k <= close; ++k) keep(k);
    }
  }

  // Appends the expansion of `tokens`, made at `use`; false (nothing appended) when it reached
  // the budget, which stops all further expansion.
  bool expand_into(const std::vector<PpToken>& tokens, const Token& use, std::string_view macro) {
    std::set<std::string, std::less<>> used;
    std::vector<PpToken> expanded = expand_macros(tokens, live_, block_macros(), &budget_, &used);
    if (budget_.exhausted) {
      stopped_ = ExpansionStop{use.position, std::string(macro), budget_.reached};
      if (budget_.where.line == 0) budget_.where = use.position;
      return false;
    }
    for (const std::string& name : used) {
      auto stream = live_stream_.find(name);
      if (stream != live_stream_.end()) used_streams_.insert(stream->second);
    }
    for (const PpToken& pp : expanded) append(pp, use);
    return true;
  }

  void append(const PpToken& pp, const Token& use) {
    if (pp.source != 0) {
      const Token& source = lexed_.tokens[pp.source - 1];
      Token t = source;
      t.condition = use.condition;
      t.stream = 0;
      t.from_macro = source.stream != 0;
      t.unknown = pp.unknown;
      if (t.kind == TokenKind::string) {
        t.literal = static_cast<uint32_t>(out_.literals.size());
        out_.literals.push_back(lexed_.literals[source.literal]);
      }
      out_.tokens.push_back(t);
      return;
    }
    if (pp.kind == TokenKind::punct && pp.text.size() > 1 && !lexer_keeps_whole(pp.text)) {
      for (char c : pp.text) {
        append(PpToken{TokenKind::punct, std::string(1, c), pp.unknown, false, 0}, use);
      }
      return;
    }
    Token t;
    t.position = use.position;
    t.condition = use.condition;
    t.kind = pp.kind;
    t.from_macro = true;
    t.made = true;
    t.unknown = pp.unknown;
    if (pp.kind == TokenKind::string) {
      t.literal = static_cast<uint32_t>(out_.literals.size());
      out_.literals.push_back(made_literal(pp.text, use.position));
      made_text(t, "");
    } else {
      made_text(t, pp.text);
    }
    out_.tokens.push_back(t);
  }

  // A string literal a macro made (by `#`, `##` or a -D value), decoded; every byte of it is at
  // the macro's use.
  static StringLiteral made_literal(const std::string& spelled, SourcePosition at) {
    StringLiteral made;
    made.is_static = false;
    TokenStream lexed = lex_cpp(spelled);
    if (lexed.tokens.size() != 1 || lexed.tokens[0].kind != TokenKind::string) return made;
    const StringLiteral& literal = lexed.literals[lexed.tokens[0].literal];
    made.is_static = literal.is_static;
    for (char c : literal.value.text()) made.value.push_back(c, at);
    made.value.set_end(at);
    return made;
  }

  // The spelling of a made token, viewed once all are collected (run()).
  void made_text(Token& t, std::string text) {
    made_views_.push_back(out_.tokens.size());
    made_.push_back(std::move(text));
    t.text = {};
  }

  // The lexed token `k` as it is written (its literal moved along: nothing else refers to a
  // literal of the code, and a #define body's literals are copied, never moved).
  void keep(size_t k) {
    Token t = lexed_.tokens[k];
    if (t.kind == TokenKind::string) {
      StringLiteral& literal = lexed_.literals[t.literal];
      t.literal = static_cast<uint32_t>(out_.literals.size());
      out_.literals.push_back(t.stream == 0 ? std::move(literal) : literal);
    }
    out_.tokens.push_back(t);
    if (t.stream == 0) return;  // only a #define body's tokens are looked at again
    kept_from_.push_back(out_.tokens.size() - 1);
    kept_index_.push_back(k);
  }

  // The bodies of macros used in the file are found at their uses; the others stay, their
  // parameters unknown tokens.
  void drop_used_bodies() {
    std::vector<bool> drop(out_.tokens.size(), false);
    for (size_t n = 0; n < kept_from_.size(); ++n) {
      Token& t = out_.tokens[kept_from_[n]];
      if (t.stream == 0) continue;
      if (used_streams_.count(t.stream)) {
        drop[kept_from_[n]] = true;
        continue;
      }
      auto body = body_of_.find(t.stream);
      if (body == body_of_.end() || t.kind != TokenKind::identifier) continue;
      const std::vector<std::string>& parameters = body->second->macro->parameters;
      size_t k = kept_index_[n];
      bool name = k == 0 || lexed_.tokens[k - 1].stream != t.stream;
      if (!name && std::find(parameters.begin(), parameters.end(), t.text) != parameters.end()) {
        t.kind = TokenKind::other;
        t.unknown = true;
      }
    }
    if (used_streams_.empty()) return;
    std::vector<size_t> moved(out_.tokens.size());
    size_t kept = 0;
    for (size_t k = 0; k < out_.tokens.size(); ++k) {
      if (drop[k]) continue;
      moved[k] = kept;
      out_.tokens[kept++] = out_.tokens[k];
    }
    out_.tokens.resize(kept);
    for (size_t& view : made_views_) view = moved[view];  // made tokens are never dropped
  }

  TokenStream& lexed_;
  const std::vector<MacroDirective>& directives_;
  ExpansionBudget& budget_;
  MacroTable live_;
  std::map<std::string, uint32_t, std::less<>> live_stream_;  // a live macro's #define body
  std::map<uint32_t, const MacroDirective*> body_of_;         // stream -> its #define
  std::set<uint32_t> used_streams_;
  std::vector<size_t> kept_from_;   // output tokens of #define bodies kept as written
  std::vector<size_t> kept_index_;  // and the lexed token each is
  std::vector<std::string> made_;   // spellings of made tokens
  std::vector<size_t> made_views_;  // the output token each is
  std::optional<ExpansionStop> stopped_;
  TokenStream out_;
};

}  // namespace

bool is_torch_block_macro(std::string_view name) { return block_macros().count(name) > 0; }

ExpandedCode expand_cpp(TokenStream lexed, const MacroTable* predefined,
                        const std::vector<MacroDirective>& directives, ExpansionBudget& budget) {
  return CodeExpander(lexed, predefined, directives, budget).run();
}

}  // namespace schemac::tokens
