// Semantic errors: each with its own rule id, a message naming the thing and the value, and the
// column of the offending text.
#include <string>

#include <gtest/gtest.h>

#include "schemac/schema/check.h"
#include "schemac/schema/parser.h"

namespace schemac::schema {
namespace {

struct CheckCase {
  const char* input;
  const char* rule;
  uint32_t column;
  const char* message;  // a substring of the message
};

void PrintTo(const CheckCase& c, std::ostream* os) { *os << c.input; }

class SemanticError : public testing::TestWithParam<CheckCase> {};

TEST_P(SemanticError, IsReportedWithItsRuleAndColumn) {
  const CheckCase& c = GetParam();
  ParseResult syntax = parse_schema_syntax(c.input);
  ASSERT_TRUE(syntax.ok()) << syntax.error->message;
  std::vector<SchemaError> errors = check_schema(*syntax.schema);
  ASSERT_EQ(errors.size(), 1u) << c.input << (errors.empty() ? "" : "\n  " + errors[1].message);
  EXPECT_EQ(errors[0].rule, c.rule);
  EXPECT_EQ(errors[0].offset + 1, c.column);
  EXPECT_NE(errors[0].message.find(c.message), std::string::npos) << errors[0].message;
  // parse_schema reports the same first error.
  ParseResult full = parse_schema(c.input);
  ASSERT_FALSE(full.ok());
  EXPECT_EQ(full.error->rule, c.rule);
}

// clang-format off
INSTANTIATE_TEST_SUITE_P(Schemas, SemanticError, testing::Values(
  CheckCase{"f(int a, float a) -> ()", "duplicate-argument", 16, "argument name 'a' is used twice"},
  CheckCase{"f(int a) -> (Tensor x, Tensor x)", "duplicate-return", 31, "return name 'x' is used twice"},
  CheckCase{"f(int a=1, int b) -> ()", "default-order", 16, "positional argument 'b' has no default but follows 'a'"},
  CheckCase{"f(int[] x=1.5) -> ()", "default-type", 11, "only a fixed-size list"},
  CheckCase{"f(int[] x=[1.5]) -> ()", "default-type", 12, "default 1.5 of argument 'x' does not fit its type 'int[]': expected an integer"},
  CheckCase{"f(bool b=3) -> ()", "default-type", 10, "default 3 of argument 'b' does not fit its type 'bool': expected True or False"},
  CheckCase{"f(Tensor? t=1) -> ()", "default-type", 13, "does not fit its type 'Tensor?'"},
  CheckCase{"f(int x='a') -> ()", "default-type", 9, "expected an integer"},
  CheckCase{"f(str s=1) -> ()", "default-type", 9, "expected a string"},
  CheckCase{"f(ScalarType t=lung) -> ()", "default-type", 16, "expected a dtype name"},
  CheckCase{"f(MemoryFormat m=long) -> ()", "default-type", 18, "expected a memory format name"},
  CheckCase{"f(int x=-True) -> ()", "default-type", 9, "default -True"},
  CheckCase{"f(int x=[1]) -> ()", "default-type", 9, "is a list, but its type 'int' is not"},
  CheckCase{"f(int[2] x=[1,2,3]) -> ()", "default-length", 12, "has 3 elements, but its type 'int[2]' has 2"},
  CheckCase{"f(int x=None) -> ()", "default-none", 9, "needs an optional type, not 'int' (write 'int?')"},
  CheckCase{"f(Tensor x=None) -> ()", "default-none", 12, "needs an optional type"},
  CheckCase{"f(int x=1, ...) -> ()", "vararg-default", 9, "cannot have defaults"},
  CheckCase{"f(int(a) x) -> ()", "alias-on-value", 6, "alias annotation (a) on 'int' makes no sense"},
  CheckCase{"f(Tensor x) -> Tensor(a)", "alias-unknown-set", 22, "aliases set 'a', but no argument is in that set"},
  CheckCase{"f(Tensor(a) x) -> Tensor(a!)", "alias-write-mismatch", 25, "writes alias set 'a'"},
  CheckCase{"f(int[2][] x) -> ()", "fixed-size-list-position", 3, "fixed-size list can only be the outermost type"},
  CheckCase{"f(Tensr x) -> ()", "unknown-type", 3, "unknown type 'Tensr'; did you mean 'Tensor'?"},
  CheckCase{"f(Frobnicator x) -> ()", "unknown-type", 3, "unknown type 'Frobnicator'"},
  CheckCase{"f.default(Tensor x) -> ()", "reserved-overload-name", 1, "overload name 'default' is reserved"},
  CheckCase{"f.__name__(Tensor x) -> ()", "reserved-overload-name", 1, "overload name '__name__' is reserved"}
));
// clang-format on

TEST(SemanticError, EveryProblemIsReportedInTextOrder) {
  ParseResult syntax = parse_schema_syntax("f(int a=1, int b, bool a=3) -> Tensor(z)");
  ASSERT_TRUE(syntax.ok());
  std::vector<SchemaError> errors = check_schema(*syntax.schema);
  ASSERT_EQ(errors.size(), 4u);
  EXPECT_EQ(errors[0].rule, "default-order");
  EXPECT_EQ(errors[1].rule, "duplicate-argument");
  EXPECT_EQ(errors[2].rule, "default-type");
  EXPECT_EQ(errors[3].rule, "alias-unknown-set");
}

// Forms that look odd but are fine.
TEST(SemanticError, AcceptedForms) {
  for (const char* text : {
           "f(SymInt[1] stride=1) -> ()",          // one value repeated for a fixed-size list
           "f(int[2] stride=[]) -> ()",            // [] means "the default" at any size
           "f(int[1] dim=[-2,-1]) -> ()",          // [1] only says a single int may stand for it
           "f(int a=1, *, int b) -> ()",           // keyword-only arguments need no default
           "f(Tensor?[]? x=None, Tensor? y=None) -> ()",
           "f(float x=1, float y=-inf, complex z=0.5) -> ()",
           "f(t x, t? y=None, Any z=None) -> t",   // type variables and Any
           "f(Tensor(a -> *) self) -> Tensor(a)[]",
           "f(Tensor(a!) x, Tensor(b!) y) -> (Tensor(a!), Tensor(b!))",
           "f(Tensor(a!)[] out) -> ()",
           "f(Tensor x) -> Tensor(*)",
           "f(int[2]? x=None) -> ()",
       }) {
    ParseResult result = parse_schema(text);
    EXPECT_TRUE(result.ok()) << text << ": " << (result.ok() ? "" : result.error->message);
  }
}

}  // namespace
}  // namespace schemac::schema
