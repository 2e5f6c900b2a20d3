// The message of every point of no return in the schema grammar (schema_grammar.h). A rule used
// inside must<> without a message here fails the build (must_if with RequireMessage).
#pragma once

#include "schema_grammar.h"

namespace schemac::schema::grammar {

template <typename Rule>
inline constexpr const char* error_message = nullptr;

// clang-format off
template <> inline constexpr const char* error_message<expect_operator_name> = "expected an operator name";
template <> inline constexpr const char* error_message<expect_name_after_namespace> = "expected an operator name after '::'";
template <> inline constexpr const char* error_message<expect_overload_name> = "expected an overload name after '.'";
template <> inline constexpr const char* error_message<expect_alias_before_symbol> = "expected an alias set name (a letter or '*') in the alias annotation";
template <> inline constexpr const char* error_message<expect_alias_after_symbol> = "expected an alias set name (a letter or '*') after '->' in the alias annotation";
template <> inline constexpr const char* error_message<expect_alias_close> = "expected ')' to close the alias annotation";
template <> inline constexpr const char* error_message<expect_list_close> = "expected ']' or a list size after '['";
template <> inline constexpr const char* error_message<expect_contained_type> = "expected a type after '('";
template <> inline constexpr const char* error_message<expect_next_contained_type> = "expected a type after ','";
template <> inline constexpr const char* error_message<expect_contained_close> = "expected ',' or ')' after the contained type";
template <> inline constexpr const char* error_message<expect_dict_comma> = "expected ',' and the value type after the key type of 'Dict('";
template <> inline constexpr const char* error_message<expect_triple_single_quote_end> = "unterminated string literal: expected a closing \"\'\'\'\"";
template <> inline constexpr const char* error_message<expect_triple_double_quote_end> = "unterminated string literal: expected a closing '\"\"\"'";
template <> inline constexpr const char* error_message<expect_single_quote_end> = "unterminated string literal: expected a closing \"'\"";
template <> inline constexpr const char* error_message<expect_double_quote_end> = "unterminated string literal: expected a closing '\"'";
template <> inline constexpr const char* error_message<expect_default_list_item> = "expected a value after ',' in the list default";
template <> inline constexpr const char* error_message<expect_default_list_close> = "expected ',' or ']' in the list default";
template <> inline constexpr const char* error_message<expect_default_value> = "expected a default value after '='";
template <> inline constexpr const char* error_message<expect_argument_name> = "expected an argument name after the type";
template <> inline constexpr const char* error_message<expect_varargs_last> = "'...' must be the last argument";
template <> inline constexpr const char* error_message<expect_first_argument> = "expected an argument or ')' after '('";
template <> inline constexpr const char* error_message<expect_next_argument> = "expected an argument after ','";
template <> inline constexpr const char* error_message<expect_arguments_close> = "expected ',' or ')' after the argument";
template <> inline constexpr const char* error_message<expect_arguments> = "expected '(' and the arguments after the operator name";
template <> inline constexpr const char* error_message<expect_varret_last> = "'...' must be the last return";
template <> inline constexpr const char* error_message<expect_first_return> = "expected a return type or ')' after '('";
template <> inline constexpr const char* error_message<expect_next_return> = "expected a return type after ','";
template <> inline constexpr const char* error_message<expect_returns_close> = "expected ',' or ')' after the return";
template <> inline constexpr const char* error_message<expect_returns> = "expected a return type, '(' or '...' after '->'";
template <> inline constexpr const char* error_message<expect_arrow> = "expected '->' after the arguments";
template <> inline constexpr const char* error_message<expect_end> = "unexpected text after the returns";
// clang-format on

// The Errors parameter of pegtl::must_if.
struct errors {
  template <typename Rule>
  static constexpr const char* message = error_message<Rule>;
};

}  // namespace schemac::schema::grammar
