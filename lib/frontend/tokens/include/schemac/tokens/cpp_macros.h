// Build macros as a compiler takes them, as far as finding registrations needs: the names the
// command line (`-D NAME=VALUE`, `-U NAME`), `.schemac.yaml`'s `defines:` and the file's own
// `#define` / `#undef` give, object-like and function-like macros (with `#` and `##`) expanded
// the way the preprocessor does (arguments expanded before substitution unless next to `#` or
// `##`, the result rescanned, a macro never expanding inside itself), and `#if` expressions
// decided when every name they test is known. A name nobody defined is *unknown*, not false:
// schemac does not see the headers and flags of the build, so a condition on such a name
// decides nothing (both branches count, as before). Expansion is bounded, as a compiler bounds
// it: an ExpansionBudget counts the tokens made and the nesting, and a file whose macros would
// grow past it (a definition that doubles itself forty times) stops being expanded, with the place
// where it happened.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "schemac/tokens/mapped_text.h"
#include "schemac/tokens/token.h"

namespace schemac::tokens {

// One preprocessing token of a macro body or an expansion. `unknown` marks text that came from
// a name that looks like a build macro (ALL-CAPS) nobody defined: what is made of it is unknown.
struct PpToken {
  TokenKind kind = TokenKind::other;
  std::string text;
  bool unknown = false;
  bool space_before = false;  // for `#` (stringifying) only
  // 1 + the index of the lexed token this one is (a string literal's byte map and the place it
  // was written follow it through expansion); 0 for a token a macro made.
  uint32_t source = 0;
};

struct Macro {
  bool function_like = false;
  std::vector<std::string> parameters;  // function-like only; "__VA_ARGS__" for `...`
  std::vector<PpToken> body;
};

class MacroTable {
 public:
  void define(std::string name, Macro macro);
  void undefine(const std::string& name);  // known to be undefined from here on
  const Macro* find(std::string_view name) const;
  bool known_undefined(std::string_view name) const;
  bool empty() const { return macros_.empty() && undefined_.empty(); }

  // A `-D` argument: "NAME", "NAME=VALUE" or "NAME(a, b)=BODY" (a bare NAME is 1, as for a
  // compiler). Returns an error message, or "" when it was taken.
  std::string define_from_text(std::string_view spec);
  // The rest of a `#define` line: "NAME BODY" or "NAME(a, b) BODY" (the '(' right after the name).
  void define_from_directive(std::string_view line);
  // The same line read into a name and a macro, without defining it; none when it names nothing.
  static std::optional<std::pair<std::string, Macro>> read_directive(std::string_view line);

  // Every definition of `other` added (replacing one of the same name), and its undefined names.
  void merge(const MacroTable& other);

 private:
  std::map<std::string, Macro, std::less<>> macros_;
  std::set<std::string, std::less<>> undefined_;
};

// A #define or #undef of the file, in the order the lexer met them.
struct MacroDirective {
  uint32_t token = 0;   // how many tokens were lexed before it: it holds from that token on
  uint32_t stream = 0;  // a #define: the stream its body was lexed into (Token::stream)
  SourcePosition position;
  std::string name;
  std::optional<Macro> macro;  // none: #undef
};

// How far macro expansion may go in one file: tokens made (and read again while rescanning, and
// carried out of each nested expansion), and how deeply invocations nest (compilers bound recursion
// alike). When a bound is reached, `reached` says so and no more is expanded.
struct ExpansionBudget {
  static constexpr size_t kTokens = size_t{1} << 18;
  static constexpr int kDepth = 200;
  size_t tokens_left = kTokens;
  bool exhausted = false;     // a bound was reached: nothing more is expanded
  std::string reached;        // what was reached: "more than N tokens", "nested deeper than N"
  SourcePosition where;       // where it was reached, when the caller knows (0: not said yet)
  bool spend(size_t tokens);  // false (and exhausted) once the tokens run out
};

// The macros every C++ file may use without defining them: vLLM's csrc/core/registration.h
// (`CONCAT(A, B)` through `_CONCAT(A, B) A##B`, `TORCH_LIBRARY_EXPAND(NAME, MODULE)` as
// `TORCH_LIBRARY(NAME, MODULE)`, `TORCH_LIBRARY_IMPL_EXPAND(NAME, DEVICE, MODULE)`), which the
// projects copying vLLM's layout include as they are.
const MacroTable& builtin_macros();

// Preprocessing tokens of a text (a -D value, a #define body, an #if expression).
std::vector<PpToken> pp_tokenize(std::string_view text);

// `tokens` with every macro expanded and the result rescanned. `stop` names identifiers left as
// they are even when defined (the macros of libtorch a caller reads itself). Expansion is bounded
// by `budget` (a fresh one when none is given): once it is exhausted the tokens are returned as
// far as they were expanded. `used`, when given, gets the name of every macro expanded.
std::vector<PpToken> expand_macros(const std::vector<PpToken>& tokens, const MacroTable& table,
                                   const std::set<std::string, std::less<>>& stop = {},
                                   ExpansionBudget* budget = nullptr,
                                   std::set<std::string, std::less<>>* used = nullptr);

// The value of an `#if` / `#elif` expression: true or false when it can be decided, nullopt when
// it tests a name whose definition is unknown (or cannot be read, or expands past `budget`).
std::optional<bool> evaluate_condition(std::string_view expression, const MacroTable& table,
                                       ExpansionBudget* budget = nullptr);

}  // namespace schemac::tokens
