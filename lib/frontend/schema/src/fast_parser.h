// The fast path of the parser: a hand-written reader of the schemas that make up nearly all real
// ones (plain and dotted type names, alias annotations such as `(a!)` and `(a -> *)`, `[]`, `[N]`
// and `?` suffixes, number, string, name and list defaults, `*`, named returns), in front of the
// PEGTL grammar (schema_grammar.h). It builds exactly the model the grammar's actions would build,
// and declines everything else: containers, `...`, bare `!`, blanks inside names or after a '-',
// escapes and triple quotes in strings, hexadecimal and complex numbers, comments, and every
// error. parse_schema_syntax then runs the grammar from the start, so errors and the rare forms
// have one implementation. Private to lib/frontend/schema.
#pragma once

#include <cstdint>
#include <string_view>

#include "schema_builder.h"
#include "schemac/schema/parser.h"

namespace schemac::schema::detail {

// Reads `text` (a copy padded as the grammar needs: kInputPadding NUL bytes after it) into
// `builder`. False when the schema is not one the fast path reads; `builder` is then half-filled
// and must be thrown away.
bool fast_parse(std::string_view text, Builder& builder);

// Which parser parse_schema_syntax runs. `Fast` is what parse_schema_syntax does; the others let
// tests and benchmarks compare the two ways (FastOnly fails with rule "fast-path-declined" where
// the fast path declines).
enum class ParserPath : uint8_t { Fast, Grammar, FastOnly };
ParseResult parse_schema_syntax(std::string_view text, ParserPath path);

}  // namespace schemac::schema::detail
