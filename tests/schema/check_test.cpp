// Semantic checks: each problem with its own rule id, a message naming the thing and the value,
// and the column of the offending text. Errors are what PyTorch's parser rejects (checked against
// torch._C.parse_schema); warnings are what it takes but is questionable, one test per rule.
#include <string>
#include <string_view>

#include <gtest/gtest.h>

#include "schemac/schema/check.h"
#include "schemac/schema/parser.h"

namespace schemac::schema {
namespace {

struct CheckCase {
  const char* input;
  const char* rule;
  const char* at;       // the text the problem points at: its first occurrence in `input`
  const char* message;  // a substring of the message
};

void PrintTo(const CheckCase& c, std::ostream* os) { *os << c.input; }

uint32_t column_of(const CheckCase& c) {
  return static_cast<uint32_t>(std::string_view(c.input).find(c.at)) + 1;
}

// The one problem check_schema finds in `c.input`.
SchemaError only_problem(const CheckCase& c) {
  ParseResult syntax = parse_schema_syntax(c.input);
  EXPECT_TRUE(syntax.ok()) << syntax.error->message;
  if (!syntax.ok()) return {};
  std::vector<SchemaError> problems = check_schema(*syntax.schema);
  EXPECT_EQ(problems.size(), 1u) << c.input << (problems.size() > 1 ? "\n  " + problems[1].message : "");
  if (problems.empty()) return {};
  const SchemaError& p = problems[0];
  EXPECT_EQ(p.rule, c.rule);
  EXPECT_EQ(p.offset + 1, column_of(c)) << p.message;
  EXPECT_NE(p.message.find(c.message), std::string::npos) << p.message;
  return p;
}

class SemanticError : public testing::TestWithParam<CheckCase> {};

TEST_P(SemanticError, IsReportedWithItsRuleAndColumn) {
  const CheckCase& c = GetParam();
  SchemaError problem = only_problem(c);
  EXPECT_EQ(problem.severity, SchemaSeverity::Error);
  // parse_schema reports the same first error.
  ParseResult full = parse_schema(c.input);
  ASSERT_FALSE(full.ok());
  EXPECT_EQ(full.error->rule, c.rule);
}

// clang-format off
INSTANTIATE_TEST_SUITE_P(Schemas, SemanticError, testing::Values(
  CheckCase{"f(int a=1, int b) -> ()", "default-order", "b)", "positional argument 'b' has no default but follows 'a'"},
  CheckCase{"f(Tensor? x=None, Tensor? y) -> ()", "default-order", "y)", "follows 'x'"},
  CheckCase{"f(int[] x=1.5) -> ()", "default-unreadable", "1.5", "only a fixed-size list"},
  CheckCase{"f(int[] x=None) -> ()", "default-unreadable", "None", "needs brackets"},
  CheckCase{"f(int[] x=[1.5]) -> ()", "default-unreadable", "1.5", "does not fit its element type 'int'"},
  CheckCase{"f(bool[] x=[1]) -> ()", "default-unreadable", "1]", "does not fit its element type 'bool'"},
  CheckCase{"f(int[2] x=None) -> ()", "default-unreadable", "None", "does not fit its element type"},
  CheckCase{"f(str[] x=[]) -> ()", "default-unreadable", "[])", "only for int, float, bool and complex lists"},
  CheckCase{"f(Tensor x=1) -> ()", "default-unreadable", "1)", "can only be None"},
  CheckCase{"f(ScalarType t=lung) -> ()", "default-unreadable", "lung", "(not a dtype name)"},
  CheckCase{"f(MemoryFormat m=preserve_format) -> ()", "default-unreadable", "preserve", "'preserve_format' is not a value"},
  CheckCase{"f(float x=inf) -> ()", "default-unreadable", "inf", "'inf' is not a value"},
  CheckCase{"f(int x=[1]) -> ()", "default-unreadable", "[1]", "only read for a list type"},
  CheckCase{"f(int? x=99999999999999999999) -> ()", "default-unreadable", "999", "does not fit in 64 bits"},
  CheckCase{"f(float x=1e400) -> ()", "default-unreadable", "1e400", "out of range"},
  CheckCase{"f(str s='\\x41') -> ()", "default-unreadable", "'", "hexadecimal escapes"},
  CheckCase{"f(str s='\\r') -> ()", "default-unreadable", "'", "escape '\\r' is not supported"},
  CheckCase{"f(Device d='gpu') -> ()", "default-unreadable", "'gpu'", "not a device string"},
  CheckCase{"f(Any x=None) -> ()", "default-unreadable", "None", "cannot have a default"},
  CheckCase{"f((int, int) y=None) -> ()", "default-unreadable", "None", "cannot have a default"},
  CheckCase{"f(int x=1, ...) -> ()", "vararg-default", "1,", "cannot have defaults"},
  CheckCase{"f(int[2][] x) -> ()", "fixed-size-list-position", "int[2]", "fixed-size list can only be the outermost type"},
  CheckCase{"f(Tensr x) -> ()", "unknown-type", "Tensr", "unknown type 'Tensr'; did you mean 'Tensor'?"},
  CheckCase{"f(Frobnicator x) -> ()", "unknown-type", "Frob", "unknown type 'Frobnicator'"},
  CheckCase{"f(double x) -> ()", "unknown-type", "double", "write 'float'"},
  CheckCase{"f(int64_t x) -> ()", "unknown-type", "int64_t", "write 'int'"},
  CheckCase{"f(__torch__.foo.Bar x) -> ()", "unknown-type", "__torch__", "__torch__.torch.classes.<namespace>.<class>"},
  CheckCase{"f(Union(int) x) -> ()", "union-members", "Union", "fewer than two different member types"},
  CheckCase{"f(Union(int, int) x) -> ()", "union-members", "Union", "fewer than two"},
  CheckCase{"f(Tensor x) -> None?", "union-members", "None?", "an optional of None"},
  CheckCase{"f(Tensor in) -> ()", "keyword-name", "in)", "argument name 'in' is a keyword"},
  CheckCase{"f(Tensor x) -> (Tensor is)", "keyword-name", "is)", "return name 'is'"},
  // The lexer of torch._C.parse_schema (1.13) reads these as keywords wherever a name goes.
  CheckCase{"min.or(Tensor x) -> Tensor", "keyword-name", "min.or", "overload name 'or'"},
  CheckCase{"in.itialize(int size) -> ()", "keyword-name", "in.itialize", "operator name 'in'"},
  CheckCase{"def::f(Tensor x) -> ()", "keyword-name", "def::f", "namespace name 'def'"},
  CheckCase{"f(Tensor(None!) x) -> Tensor", "keyword-name", "(None!)", "alias set name 'None'"},
  CheckCase{"f(Tensor(if) x) -> ()", "keyword-name", "(if)", "alias set name 'if'"},
  CheckCase{"f(Tensor(a -> as) x) -> ()", "keyword-name", "(a -> as)", "alias set name 'as'"},
  CheckCase{"f.default(Tensor x) -> ()", "reserved-overload-name", "f", "overload name 'default' is reserved"},
  CheckCase{"f.__foo(Tensor x) -> ()", "reserved-overload-name", "f", "overload name '__foo' is reserved"}
));
// clang-format on

class SemanticWarning : public testing::TestWithParam<CheckCase> {};

TEST_P(SemanticWarning, IsReportedButTheSchemaParses) {
  const CheckCase& c = GetParam();
  SchemaError problem = only_problem(c);
  EXPECT_EQ(problem.severity, SchemaSeverity::Warning);
  ParseResult full = parse_schema(c.input);
  ASSERT_TRUE(full.ok()) << full.error->message;
  ASSERT_EQ(full.warnings.size(), 1u);
  EXPECT_EQ(full.warnings[0].rule, c.rule);
}

// clang-format off
INSTANTIATE_TEST_SUITE_P(Schemas, SemanticWarning, testing::Values(
  // seen in vllm csrc/torch_bindings.cpp (convert_vertical_slash_indexes)
  CheckCase{"f(Tensor q_seqlens, Tensor q_seqlens) -> ()", "duplicate-argument", "q_seqlens)", "argument name 'q_seqlens' is used twice"},
  CheckCase{"f(int a) -> (Tensor x, Tensor x)", "duplicate-return", "x)", "return name 'x' is used twice"},
  // a defaulted positional argument before a list one: PyTorch exempts lists
  CheckCase{"f(Tensor? bias=None, int[] stride) -> ()", "default-order-list", "stride", "follows 'bias'"},
  CheckCase{"f(int x=True) -> ()", "default-type", "True", "default True of argument 'x' does not fit its type 'int'"},
  CheckCase{"f(bool b=3) -> ()", "default-type", "3", "does not fit its type 'bool'"},
  CheckCase{"f(Tensor? t=1) -> ()", "default-type", "1", "does not fit its type 'Tensor?'"},
  CheckCase{"f(str s=1) -> ()", "default-type", "1", "does not fit its type 'str'"},
  CheckCase{"f(int[2] x=[1,2,3]) -> ()", "default-length", "[1", "has 3 elements, but its type 'int[2]' has 2"},
  CheckCase{"f(int x=None) -> ()", "default-none", "None", "needs an optional type, not 'int' (write 'int?')"},
  CheckCase{"f(Tensor x=None) -> ()", "default-none", "None", "needs an optional type"},
  // seen in FBGEMM: an int mask written in hexadecimal
  CheckCase{"f(int mask=0x2FFFFFF) -> ()", "default-hex", "0x", "reads it as a decimal integer"},
  // `int!?` seen in vllm csrc/torch_bindings.cpp (merge_attn_states)
  CheckCase{"f(int!? tokens) -> ()", "alias-on-value", "!", "alias annotation ! on 'int' makes no sense"},
  CheckCase{"f(int(a) x) -> ()", "alias-on-value", "(a)", "alias annotation (a) on 'int'"},
  CheckCase{"f(Tensor x) -> Tensor(a)", "alias-unknown-set", "(a)", "aliases set 'a', but no argument is in that set"},
  CheckCase{"f(Tensor x) -> Tensor(x_out)", "alias-unknown-set", "(x_out)", "aliases set 'x_out'"},
  CheckCase{"f(Tensor(a) x) -> Tensor(a!)", "alias-write-mismatch", "(a!)", "writes alias set 'a'"},
  CheckCase{"f(Tensor x, *) -> ()", "kwarg-marker", "*", "not followed by any keyword-only argument"},
  CheckCase{"f(*, *, Tensor x) -> ()", "kwarg-marker", "*", "more than once"}
));
// clang-format on

TEST(SemanticError, EveryProblemIsReportedInTextOrder) {
  ParseResult syntax = parse_schema_syntax("f(int a=1, int b, bool a=3) -> Tensor(z)");
  ASSERT_TRUE(syntax.ok());
  std::vector<SchemaError> problems = check_schema(*syntax.schema);
  ASSERT_EQ(problems.size(), 4u);
  EXPECT_EQ(problems[0].rule, "default-order");
  EXPECT_EQ(problems[1].rule, "duplicate-argument");
  EXPECT_EQ(problems[2].rule, "default-type");
  EXPECT_EQ(problems[3].rule, "alias-unknown-set");
  EXPECT_EQ(problems[0].severity, SchemaSeverity::Error);
  EXPECT_EQ(problems[1].severity, SchemaSeverity::Warning);
}

// Forms that look odd but PyTorch takes them without anything questionable.
TEST(SemanticError, AcceptedForms) {
  for (const char* text : {
           "f(SymInt[1] stride=1) -> ()",          // one value repeated for a fixed-size list
           "f(int[2] stride=[]) -> ()",            // [] means "the default" at any size
           "f(int[1] dim=[-2,-1]) -> ()",          // [1] only says a single int may stand for it
           "f(int a=1, *, int b) -> ()",           // keyword-only arguments need no default
           "f(Tensor?[]? x=None, Tensor? y=None) -> ()",
           "f(float x=1, float y=-2.5e-3, complex z=0.5, complex w=1j) -> ()",
           "f(t x, t? y=None) -> t",               // type variables
           "f(Tensor(a -> *) self) -> Tensor(a)[]",
           "f(Tensor(a!) x, Tensor(b!) y) -> (Tensor(a!), Tensor(b!))",
           "f(Tensor(a!)[] out) -> ()",
           "f(Tensor x) -> Tensor(*)",
           "f(int[2]? x=None) -> ()",
           "f(ScalarType dst_type=39) -> ()",      // seen in FBGEMM: an integer dtype code
           "f(ScalarType? t=bfloat16, ScalarType u=long) -> ()",
           "f(int reduction=Mean, Layout l=strided, MemoryFormat m=contiguous_format) -> ()",
           "f(str s='a\\'b\\n\\101', str t=\"x\", str u='''q''') -> ()",
           "f(Device d='cuda:0', Device? e=None) -> ()",
           "f(Dict(str, Tensor)? x=None, (int, int)? y=None) -> ()",
           "f(Tensor(a|*) x) -> ()",
           "f(Any x) -> Any",
           "f(__torch__.torch.classes.ns.Foo x) -> ()",
       }) {
    ParseResult result = parse_schema(text);
    EXPECT_TRUE(result.ok()) << text << ": " << (result.ok() ? "" : result.error->message);
    EXPECT_TRUE(result.warnings.empty())
        << text << ": " << (result.warnings.empty() ? "" : result.warnings[0].message);
  }
}

}  // namespace
}  // namespace schemac::schema
