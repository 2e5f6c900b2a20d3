// Schemas that must not parse: the stable part of the message, the 1-based column and the rule.
#include <string>

#include <gtest/gtest.h>

#include "schemac/schema/parser.h"

namespace schemac::schema {
namespace {

struct ErrorCase {
  const char* input;
  uint32_t column;
  const char* message;  // a substring of the message
  const char* rule = "schema-syntax";
};

void PrintTo(const ErrorCase& c, std::ostream* os) { *os << c.input; }

class SyntaxError : public testing::TestWithParam<ErrorCase> {};

TEST_P(SyntaxError, ReportsColumnAndWhatWasExpected) {
  const ErrorCase& c = GetParam();
  ParseResult result = parse_schema(c.input);
  ASSERT_FALSE(result.ok()) << "parsed: " << c.input;
  ASSERT_TRUE(result.error);
  EXPECT_EQ(result.error->offset + 1, c.column) << result.error->message;
  EXPECT_NE(result.error->message.find(c.message), std::string::npos)
      << "message: " << result.error->message;
  EXPECT_EQ(result.error->rule, c.rule);
  EXPECT_FALSE(result.error->message.empty());
  EXPECT_NE(result.error->message.back(), '.');
}

// clang-format off
INSTANTIATE_TEST_SUITE_P(Schemas, SyntaxError, testing::Values(
  ErrorCase{"", 1, "expected an operator name, found end of input"},
  ErrorCase{"(Tensor x) -> ()", 1, "expected an operator name, found '('"},
  ErrorCase{"aten::(Tensor x) -> ()", 7, "expected an operator name after '::'"},
  ErrorCase{"foo.(Tensor x) -> ()", 5, "expected an overload name after '.'"},
  ErrorCase{"foo", 4, "expected '(' and the arguments after the operator name, found end of input"},
  ErrorCase{"foo(", 5, "expected an argument or ')' after '('"},
  ErrorCase{"foo(1) -> ()", 5, "expected an argument or ')' after '(', found '1'"},
  ErrorCase{"foo(Tensor x", 13, "expected ',' or ')' after the argument"},
  ErrorCase{"foo(Tensor x,) -> ()", 14, "expected an argument after ','"},
  ErrorCase{"foo(Tensor) -> ()", 11, "expected an argument name after the type, found ')'"},
  ErrorCase{"foo(Tensor x=) -> ()", 14, "expected a default value after '='"},
  ErrorCase{"foo(int x=1_000) -> ()", 11, "expected a default value after '=', found '1_000'"},
  ErrorCase{"foo(float x=-inf) -> ()", 13, "expected a default value after '=', found '-'"},
  ErrorCase{"foo(int[] x=[[1]]) -> ()", 14, "expected ',' or ']' in the list default, found '['"},
  ErrorCase{"foo(Tensor(*|a) x) -> ()", 14, "alias set 'a' cannot follow the wildcard '*'"},
  ErrorCase{"foo((int, int)(a) x) -> ()", 15, "expected an argument name after the type, found '('"},
  ErrorCase{"foo(Dict(str) x) -> ()", 13, "expected ',' and the value type after the key type of 'Dict('"},
  ErrorCase{"foo(Dict(str, int, int) x) -> ()", 18, "expected ',' or ')' after the contained type"},
  ErrorCase{"foo(Union() x) -> ()", 11, "expected a type after '('"},
  ErrorCase{"foo((int,) x) -> ()", 10, "expected a type after ','"},
  ErrorCase{"foo(Future(Tensor)(a) x) -> ()", 19, "expected an argument name after the type, found '('"},
  ErrorCase{"foo(Tensor x)", 14, "expected '->' after the arguments"},
  ErrorCase{"foo(Tensor x) Tensor", 15, "expected '->' after the arguments, found 'Tensor'"},
  ErrorCase{"foo(Tensor x) ->", 17, "expected a return type, '(' or '...' after '->'"},
  ErrorCase{"foo(Tensor x) -> Tensor junk junk", 30, "unexpected text after the returns, found 'junk'"},
  ErrorCase{"foo(Tensor(a x) -> ()", 14, "expected ')' to close the alias annotation"},
  ErrorCase{"foo(Tensor() x) -> ()", 12, "expected an alias set name"},
  ErrorCase{"foo(Tensor(a|) x) -> ()", 14, "expected an alias set name"},
  ErrorCase{"foo(Tensor(a ->) x) -> ()", 16, "after '->' in the alias annotation"},
  ErrorCase{"foo(int[2 x) -> ()", 11, "expected ']' or a list size after '['"},
  ErrorCase{"foo(int[x] x) -> ()", 9, "expected ']' or a list size after '['"},
  ErrorCase{"foo(int[] x=[1,) -> ()", 16, "expected a value after ',' in the list default"},
  ErrorCase{"foo(int[] x=[1 2]) -> ()", 16, "expected ',' or ']' in the list default, found '2'"},
  ErrorCase{"foo(str s='abc) -> ()", 22, "unterminated string literal"},
  ErrorCase{"foo(str s=\"abc) -> ()", 22, "unterminated string literal"},
  ErrorCase{"foo(..., Tensor x) -> ()", 8, "'...' must be the last argument"},
  ErrorCase{"foo(Tensor x) -> (..., Tensor)", 22, "'...' must be the last return"},
  ErrorCase{"foo(Tensor x) -> (Tensor,)", 26, "expected a return type after ','"},
  ErrorCase{"foo(Tensor x) -> (Tensor", 25, "expected ',' or ')' after the return"},
  ErrorCase{"foo(Tensor x) -> Tensor(a", 26, "expected ')' to close the alias annotation"},
  ErrorCase{"foo(int[99999999999999999999999] x) -> ()", 9, "list size 99999999999999999999999 is too large"},
  ErrorCase{"foo(Tensor x) -> ()\x01", 20, "found byte 0x01"},
  ErrorCase{"foo(Tensor?(a) x) -> ()", 12, "expected an argument name after the type, found '('"}
));
// clang-format on

TEST(SyntaxError, NeverThrowsOnOddBytes) {
  std::string text = "f(Tensor x) -> ()";
  for (size_t cut = 0; cut <= text.size(); ++cut) {
    EXPECT_NO_THROW(parse_schema(text.substr(0, cut)));
  }
  EXPECT_FALSE(parse_schema(std::string("f(\0) -> ()", 10)).ok());
  EXPECT_FALSE(parse_schema("f(Tensor x) -> (" + std::string(10000, '(')).ok());
  // Deep nesting is refused before it can exhaust the stack.
  ParseResult deep = parse_schema("f(int" + std::string(200000, '?') + " x) -> ()");
  ASSERT_FALSE(deep.ok());
  EXPECT_NE(deep.error->message.find("type nests more than 32"), std::string::npos);
  EXPECT_TRUE(parse_schema("f(int" + std::string(32, '?') + " x) -> ()").ok());
}

TEST(SyntaxError, ErrorOnlyModeSkipsTheChecks) {
  // Well-formed but semantically wrong: the syntax-only entry point accepts it.
  EXPECT_TRUE(parse_schema_syntax("f(int a=1, int b) -> ()").ok());
  EXPECT_FALSE(parse_schema("f(int a=1, int b) -> ()").ok());
}

}  // namespace
}  // namespace schemac::schema
