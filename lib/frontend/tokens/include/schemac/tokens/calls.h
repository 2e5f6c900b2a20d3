// Reading calls from tokens, as the call finders (lib/frontend/sources) and custom-op inference do:
// walking token ranges, splitting a call's arguments, joining the string literals of one argument,
// and telling a schema from an operator name.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "schemac/tokens/token.h"

namespace schemac::tokens {

// Tokens [begin, end) of a TokenStream.
struct TokenRange {
  size_t begin = 0;
  size_t end = 0;
  bool empty() const { return begin >= end; }
};

struct CallArgument {
  TokenRange range;     // without the keyword
  std::string keyword;  // Python `name=value`: "name"; otherwise empty
};

bool is_punct(const Token& token, std::string_view text);
bool is_identifier(const Token& token, std::string_view text);

// The index of the bracket that closes the one at `open` (see pair_brackets), or tokens.size().
size_t matching_close(const std::vector<Token>& tokens, size_t open);
// The index of the bracket that opens the one at `close`, or tokens.size() when none.
size_t matching_open(const std::vector<Token>& tokens, size_t close);

// The arguments of the call whose '(' is at `open`, split at top-level commas; `close` gets the
// index of the ')'. Keywords are recognised when `keywords` is set (Python). A call that is never
// closed has no arguments.
std::vector<CallArgument> call_arguments(const std::vector<Token>& tokens, size_t open,
                                         bool keywords, size_t* close = nullptr);

// The first positional argument at or after position `index`, or the keyword argument `name`.
const CallArgument* find_argument(const std::vector<CallArgument>& arguments, size_t index,
                                  std::string_view name);

// The dotted (Python) or ::-qualified (C++) name that ends at token `last`, e.g. "torch.library.
// define"; `first` gets its first token.
std::string name_ending_at(const std::vector<Token>& tokens, size_t last, size_t* first = nullptr);

// A literal string made of one argument's tokens: the joined text with its byte map, and where
// the first literal starts.
struct JoinedLiteral {
  MappedText text;
  SourcePosition position;
};

// C++: adjacent literals, in parentheses or not, inside TORCH_SELECTIVE_SCHEMA(...),
// TORCH_SELECTIVE_NAME(...) or torch::schema(...) / c10::schema(...).
std::optional<JoinedLiteral> join_cpp_literal(const TokenStream& stream, TokenRange range,
                                              std::string* why_not);
// Python: adjacent and '+'-joined literals, in parentheses or not, inside dedent(...) or
// inspect.cleandoc(...), optionally followed by .strip().
std::optional<JoinedLiteral> join_python_literal(const TokenStream& stream, TokenRange range,
                                                 std::string* why_not);

// "  ns::name.overload (" at the start: the shape of a schema (an operator name, then '(').
bool looks_like_schema(std::string_view text);
// "ns::name.overload" or "name" alone (blanks around allowed): the shape of an operator name.
bool looks_like_operator_name(std::string_view text);
// The namespace written in front of a schema or operator name ("ns::name(...)" -> "ns"), or "".
std::string written_namespace(std::string_view text);
// The operator name of a schema or name text, without blanks: "ns::name.overload".
std::string operator_name_in(std::string_view text);

// A namespace argument of TORCH_LIBRARY(...) or Library(...): a plain identifier; an ALL-CAPS one
// (TORCH_EXTENSION_NAME) is a macro whose value the build decides, so it gives "".
std::string namespace_from_identifier(std::string_view identifier);

}  // namespace schemac::tokens
