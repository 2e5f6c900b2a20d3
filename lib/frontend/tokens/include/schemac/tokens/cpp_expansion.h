// C++ code as the compiler reads it after preprocessing, as far as finding registrations needs:
// every use of a macro the file (or the build: -D, `defines:`) defines is replaced by its
// expansion, with each #define and #undef holding from where it is written. A token a macro made
// is marked `from_macro` and placed at the macro's use, except a string literal copied from the
// source (a macro's argument, a literal in a #define body), which keeps its byte map: a schema
// passed through `#define OP(sig) torch::schema(sig, ...)` is still located inside its literal.
//
// libtorch's block macros are read as libtorch defines them: TORCH_LIBRARY stringifies its
// namespace as written (its arguments are left as they are), TORCH_LIBRARY_FRAGMENT and
// TORCH_LIBRARY_IMPL pass theirs through one more macro, which expands them.
//
// A #define body stays in the stream (its own stream number) only when the macro is never used in
// the file: a registration in it is then found once, with its parameters as unknown tokens
// (`TORCH_LIBRARY_IMPL(ns, key, m)` in `#define REGISTER(key)` names no key); a macro that is used
// is found at each use instead, as the compiler sees it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "schemac/tokens/cpp_macros.h"
#include "schemac/tokens/token.h"

namespace schemac::tokens {

// Where expansion stopped in a file, and why.
struct ExpansionStop {
  SourcePosition position;  // the use of the macro whose expansion reached the bound
  std::string macro;        // its name
  std::string reached;      // ExpansionBudget::reached
};

struct ExpandedCode {
  TokenStream stream;
  std::optional<ExpansionStop> stopped;  // a bound was reached: the rest is read as written
};

// The lexed file (lex_cpp with `directives`) with its macros expanded. `predefined` is what
// lex_cpp was given (the built-in macros are added, as lex_cpp adds them); `budget` is the file's,
// shared with what lex_cpp spent on #if expressions.
ExpandedCode expand_cpp(TokenStream lexed, const MacroTable* predefined,
                        const std::vector<MacroDirective>& directives, ExpansionBudget& budget);

// libtorch's block macros (TORCH_LIBRARY, TORCH_LIBRARY_FRAGMENT, TORCH_LIBRARY_IMPL and their
// STABLE_ forms), which schemac reads itself rather than expanding.
bool is_torch_block_macro(std::string_view name);

}  // namespace schemac::tokens
