// The PEGTL grammar of a function schema. Private to lib/frontend/schema: the actions that fill the
// model live in parser.cpp, the messages of the points of no return in schema_errors.h.
//
// The reference is PyTorch's torch/csrc/jit/frontend/function_schema_parser.cpp (what
// torch._C.parse_schema accepts). Blanks may stand between any two tokens, as PyTorch's lexer
// skips them. Rules named `expect_*` (and a few others listed in schema_errors.h) are points of no
// return: once reached, a failure is an error with a message, not a backtrack.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <tao/pegtl.hpp>
#include <tao/pegtl/contrib/analyze_traits.hpp>

namespace schemac::schema::grammar {

namespace pegtl = tao::pegtl;
using pegtl::at;
using pegtl::digit;
using pegtl::eof;
using pegtl::must;
using pegtl::one;
using pegtl::opt;
using pegtl::plus;
using pegtl::seq;
using pegtl::sor;
using pegtl::star;
using pegtl::string;
using pegtl::until;

// ---- character classes ----------------------------------------------------------------------
// Blanks and identifiers are matched most often. They are ordinary PEGTL rules (rule_t, subs_t,
// match), with analyze_traits below so the grammar analysis sees them: `ws` may match nothing,
// `identifier` consumes. To be fast they rely on what parse_schema_syntax promises about the text
// it parses: it is followed by kInputPadding readable bytes, the first of them NUL. So they test
// no end pointer (NUL is neither a blank nor part of an identifier, so every scan stops at the
// end at the latest), and an identifier is scanned 16 bytes at a time without a branch per byte.
inline constexpr std::size_t kInputPadding = 16;

namespace chars {
inline constexpr uint8_t kBlank = 1;  // what pegtl::space accepts: ' ' \t \n \v \f \r
// Bytes 0x80-0xff count as letters: torchgen reads names with Python's str methods and takes any
// non-ASCII character in them (`föo`), so a UTF-8 name is one identifier.
inline constexpr uint8_t kIdentFirst = 2;  // a-z A-Z _ and bytes >= 0x80
inline constexpr uint8_t kIdentOther = 4;  // the same and 0-9
inline constexpr auto kClasses = [] {
  std::array<uint8_t, 256> table{};
  for (unsigned char c : {' ', '\t', '\n', '\v', '\f', '\r'}) table[c] = kBlank;
  for (int c = 0; c < 256; ++c) {
    bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
    if (letter) table[c] = kIdentFirst | kIdentOther;
    if (c >= '0' && c <= '9') table[c] = kIdentOther;
  }
  return table;
}();
inline bool is(char c, uint8_t cls) { return (kClasses[static_cast<unsigned char>(c)] & cls) != 0; }

// How many of the 16 bytes at `p` are [a-zA-Z0-9_] or >= 0x80 before the first that is not (16
// if all are).
inline std::size_t identifier_run(const char* p) {
#if defined(__SSE2__)
  const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  // x < n as unsigned bytes, with SSE2's signed compare: flip the top bit of both sides.
  auto below = [](__m128i x, char n) {
    const __m128i flip = _mm_set1_epi8(static_cast<char>(0x80));
    return _mm_cmplt_epi8(_mm_xor_si128(x, flip), _mm_xor_si128(_mm_set1_epi8(n), flip));
  };
  const __m128i folded = _mm_or_si128(v, _mm_set1_epi8(0x20));  // A-Z -> a-z, and no other letter
  const __m128i letter = below(_mm_sub_epi8(folded, _mm_set1_epi8('a')), 26);
  const __m128i digit = below(_mm_sub_epi8(v, _mm_set1_epi8('0')), 10);
  const __m128i underscore = _mm_cmpeq_epi8(v, _mm_set1_epi8('_'));
  const __m128i non_ascii = _mm_cmplt_epi8(v, _mm_setzero_si128());  // the top bit set
  const unsigned mask = static_cast<unsigned>(_mm_movemask_epi8(
      _mm_or_si128(_mm_or_si128(letter, digit), _mm_or_si128(underscore, non_ascii))));
  return static_cast<std::size_t>(std::countr_one(mask));  // 16 when all are
#else
  std::size_t n = 0;
  while (n < 16 && is(p[n], kIdentOther)) ++n;
  return n;
#endif
}
}  // namespace chars

// Blanks between tokens: any run of them, maybe empty (star<pegtl::space>). Most runs are one
// blank or none, so the first is stepped over without a branch.
struct blanks {
  using rule_t = blanks;
  using subs_t = pegtl::empty_list;
  template <typename ParseInput>
  static bool match(ParseInput& in) noexcept {
    const char* p = in.current();
    p += chars::kClasses[static_cast<unsigned char>(*p)] & chars::kBlank;
    while (chars::is(*p, chars::kBlank)) ++p;
    in.bump(static_cast<std::size_t>(p - in.current()));  // blanks may cross lines
    return true;
  }
};
// [a-zA-Z_][a-zA-Z_0-9]* (pegtl::identifier), with non-ASCII bytes as letters.
struct identifier_chars {
  using rule_t = identifier_chars;
  using subs_t = pegtl::empty_list;
  template <typename ParseInput>
  static bool match(ParseInput& in) noexcept {
    const char* p = in.current();
    if (!chars::is(*p, chars::kIdentFirst)) return false;
    std::size_t length = 1;
    for (std::size_t run = 16; run == 16; length += run) run = chars::identifier_run(p + length);
    in.bump_in_this_line(length);
    return true;
  }
};

struct ws : blanks {};
struct identifier : identifier_chars {};
// `...`. Tried before every argument and return, so written as single characters: their first
// test fails at once where pegtl::string would compare three bytes.
struct ellipsis : seq<one<'.'>, one<'.'>, one<'.'>> {};

// ---- operator name: [ns::]name[.overload]  (parseName; PyTorch's lexer allows blanks between
// the tokens, which the parser takes out of the name)
struct expect_name_after_namespace : identifier {};
struct namespace_separator : seq<ws, string<':', ':'>, ws> {};
struct qualified_name
    : seq<identifier, opt<namespace_separator, must<expect_name_after_namespace>>> {};
struct expect_overload_name : identifier {};
struct overload_separator : seq<ws, one<'.'>, ws> {};
struct expect_operator_name
    : seq<qualified_name, opt<overload_separator, must<expect_overload_name>>> {};

// ---- alias annotations: (a) (a!) (a|b) (a! -> a|b) (a -> *) and a bare ! (parseAliasAnnotation)
struct alias_symbol : sor<identifier, one<'*'>> {};
struct expect_alias_before_symbol : alias_symbol {};
struct expect_alias_after_symbol : alias_symbol {};
struct alias_open : one<'('> {};
struct alias_write : one<'!'> {};
struct alias_arrow : seq<one<'-'>, one<'>'>> {};
struct alias_before_set
    : seq<expect_alias_before_symbol, star<ws, one<'|'>, ws, must<expect_alias_before_symbol>>> {};
struct alias_after_set
    : seq<expect_alias_after_symbol, star<ws, one<'|'>, ws, must<expect_alias_after_symbol>>> {};
struct expect_alias_close : one<')'> {};
struct alias_annotation : seq<alias_open, ws, alias_before_set, ws, opt<alias_write>, ws,
                              opt<alias_arrow, ws, alias_after_set>, ws, must<expect_alias_close>> {
};
struct alias_bare_write : one<'!'> {};
struct alias : sor<alias_annotation, alias_bare_write> {};

// ---- types (SchemaTypeParser::parseFakeAndRealType and the `[N]` of parseArgument):
//   Name, Name(alias), (T, ...), Future(T), RRef(T), Await(T), Dict(K, V)(alias), Union(T,
//   ...)(alias), then any run of [] [N] ? with an alias after a list suffix. Containers nest:
//   `type` is recursive.
struct type;
struct type_name : seq<identifier, star<one<'.'>, identifier>> {};
struct list_size : plus<digit> {};
struct expect_list_close : one<']'> {};
struct list_suffix : seq<one<'['>, ws, opt<list_size>, ws, must<expect_list_close>> {};
struct optional_suffix : one<'?'> {};
struct type_suffix : sor<seq<list_suffix, opt<ws, alias>>, optional_suffix> {};
// One contained type of a container; its action starts a new model node for it.
struct contained_begin : pegtl::success {};
struct contained_type : seq<contained_begin, type> {};
struct expect_contained_type : contained_type {};
struct expect_next_contained_type : contained_type {};
struct expect_contained_close : one<')'> {};
struct expect_dict_comma : one<','> {};
template <typename Keyword>
struct container_open : seq<Keyword, pegtl::not_at<pegtl::identifier_other>, ws, one<'('>> {};
struct tuple_open : one<'('> {};
struct future_open : container_open<string<'F', 'u', 't', 'u', 'r', 'e'>> {};
struct rref_open : container_open<string<'R', 'R', 'e', 'f'>> {};
struct await_open : container_open<string<'A', 'w', 'a', 'i', 't'>> {};
struct dict_open : container_open<string<'D', 'i', 'c', 't'>> {};
struct union_open : container_open<string<'U', 'n', 'i', 'o', 'n'>> {};
struct contained_more : star<ws, one<','>, ws, must<expect_next_contained_type>> {};
struct tuple_type
    : seq<tuple_open, ws, opt<contained_type, contained_more>, ws, must<expect_contained_close>> {};
struct single_contained : seq<ws, must<expect_contained_type>, ws, must<expect_contained_close>> {};
struct future_type : seq<sor<future_open, rref_open, await_open>, single_contained> {};
struct dict_type : seq<dict_open, ws, must<expect_contained_type>, ws, must<expect_dict_comma>, ws,
                       must<expect_next_contained_type>, ws, must<expect_contained_close>> {};
struct union_type : seq<union_open, ws, must<expect_contained_type>, contained_more, ws,
                        must<expect_contained_close>> {};
// Tuples, futures, rrefs and awaits take no alias annotation of their own (PyTorch's parser reads
// none after them); a name, a Dict and a Union may have one.
// Most types are plain names: one test of the first character sends them past the containers.
struct container_head
    : seq<at<one<'(', 'F', 'R', 'A', 'D', 'U'>>,
          sor<tuple_type, future_type, seq<sor<dict_type, union_type>, opt<ws, alias>>>> {};
struct type_head : sor<container_head, seq<type_name, opt<ws, alias>>> {};
struct type : seq<type_head, star<ws, type_suffix>> {};

// ---- default values (parseDefaultValue / parseSingleConstant, and the lexer's numbers and
// strings): what the lexer reads as one number token is strtod's extent and an optional `j`.
struct exponent : seq<one<'e', 'E'>, opt<one<'+', '-'>>, plus<digit>> {};
struct hex_exponent : seq<one<'p', 'P'>, opt<one<'+', '-'>>, plus<digit>> {};
struct hex_number : seq<one<'0'>, one<'x', 'X'>,
                        sor<seq<plus<pegtl::xdigit>, opt<one<'.'>, star<pegtl::xdigit>>>,
                            seq<one<'.'>, plus<pegtl::xdigit>>>,
                        opt<hex_exponent>> {};
struct decimal_number
    : seq<sor<seq<plus<digit>, opt<one<'.'>, star<digit>>>, seq<one<'.'>, plus<digit>>>,
          opt<exponent>> {};
struct default_number : seq<opt<one<'-'>, ws>, sor<hex_number, decimal_number>, opt<one<'j'>>,
                            pegtl::not_at<pegtl::identifier_other>> {};
struct string_escape : seq<one<'\\'>, pegtl::any> {};
struct triple_single_quote : string<'\'', '\'', '\''> {};
struct triple_double_quote : string<'"', '"', '"'> {};
struct expect_triple_single_quote_end : until<triple_single_quote, sor<string_escape, pegtl::any>> {
};
struct expect_triple_double_quote_end : until<triple_double_quote, sor<string_escape, pegtl::any>> {
};
struct expect_single_quote_end : until<one<'\''>, sor<string_escape, pegtl::not_one<'\n'>>> {};
struct expect_double_quote_end : until<one<'"'>, sor<string_escape, pegtl::not_one<'\n'>>> {};
struct default_string : sor<seq<triple_single_quote, must<expect_triple_single_quote_end>>,
                            seq<triple_double_quote, must<expect_triple_double_quote_end>>,
                            seq<one<'\''>, must<expect_single_quote_end>>,
                            seq<one<'"'>, must<expect_double_quote_end>>> {};
// True, False, None and enum-like names (contiguous_format, long, Mean, ...).
struct default_identifier : identifier {};
struct default_scalar : sor<default_number, default_string, default_identifier> {};
struct expect_default_list_item : default_scalar {};
struct default_list_open : one<'['> {};
struct expect_default_list_close : one<']'> {};
struct default_list
    : seq<default_list_open, ws,
          opt<default_scalar, star<ws, one<','>, ws, must<expect_default_list_item>>>, ws,
          must<expect_default_list_close>> {};
struct expect_default_value : sor<default_list, default_scalar> {};

// ---- arguments (parseArgument, and the list in parseDeclaration) -------------------------------
struct expect_argument_name : identifier {};
struct default_assign : seq<ws, one<'='>, ws, must<expect_default_value>> {};
// argument_begin and return_begin match nothing; their actions start a new model entry.
struct argument_begin : pegtl::success {};
struct argument : seq<argument_begin, type, ws, must<expect_argument_name>, opt<default_assign>> {};
struct kwarg_marker : one<'*'> {};
struct expect_varargs_last : at<ws, one<')'>> {};
struct varargs : seq<ellipsis, must<expect_varargs_last>> {};
struct argument_item : sor<varargs, kwarg_marker, argument> {};
struct expect_first_argument : argument_item {};
struct expect_next_argument : argument_item {};
struct expect_arguments_close : one<')'> {};
struct arguments_open : one<'('> {};
struct arguments
    : seq<arguments_open, ws,
          sor<one<')'>,
              seq<must<expect_first_argument>, star<ws, one<','>, ws, must<expect_next_argument>>,
                  ws, must<expect_arguments_close>>>> {};
struct expect_arguments : arguments {};

// ---- returns: `()`, `Type [name]`, `(Type [name], ...)`, `...` ---------------------------------
struct return_name : identifier {};
struct return_begin : pegtl::success {};
struct return_item : seq<return_begin, type, opt<ws, return_name>> {};
struct varret : ellipsis {};
struct expect_varret_last : at<ws, one<')'>> {};
struct return_list_item : sor<seq<varret, must<expect_varret_last>>, return_item> {};
struct expect_first_return : return_list_item {};
struct expect_next_return : return_list_item {};
struct expect_returns_close : one<')'> {};
struct return_list_open : one<'('> {};
struct return_list
    : seq<return_list_open, ws,
          sor<one<')'>,
              seq<must<expect_first_return>, star<ws, one<','>, ws, must<expect_next_return>>, ws,
                  must<expect_returns_close>>>> {};
struct expect_returns : sor<varret, return_list, return_item> {};
struct expect_arrow : string<'-', '>'> {};

// ---- the whole schema -----------------------------------------------------------------------
struct expect_end : eof {};
// PyTorch's lexer skips a `#` comment to the end of the line.
struct comment : seq<one<'#'>, star<pegtl::not_one<'\n'>>> {};
struct schema
    : seq<ws, must<expect_operator_name>, ws, must<expect_arguments>, ws, must<expect_arrow>, ws,
          must<expect_returns>, ws, opt<comment, ws>, must<expect_end>> {};

}  // namespace schemac::schema::grammar

// The grammar analysis (tests/schema/grammar_analyze_test.cpp) must know the two hand-written
// rules: blanks may match nothing, an identifier always consumes.
template <typename Name>
struct tao::pegtl::analyze_traits<Name, schemac::schema::grammar::blanks>
    : tao::pegtl::analyze_opt_traits<> {};
template <typename Name>
struct tao::pegtl::analyze_traits<Name, schemac::schema::grammar::identifier_chars>
    : tao::pegtl::analyze_any_traits<> {};
