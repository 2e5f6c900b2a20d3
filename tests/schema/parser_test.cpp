// Valid schemas: the canonical text they print as, and the structure they parse into.
#include <string>

#include <gtest/gtest.h>

#include <span>
#include <string_view>
#include <vector>

#include "schemac/schema/parser.h"
#include "schemac/schema/printer.h"

namespace schemac::schema {
namespace {

// An alias set list as a vector, to compare with EXPECT_EQ.
std::vector<std::string_view> sets(std::span<const std::string_view> names) {
  return {names.begin(), names.end()};
}

struct CanonicalCase {
  const char* input;
  const char* canonical;
};

class Canonical : public testing::TestWithParam<CanonicalCase> {};

TEST_P(Canonical, PrintsTheCanonicalForm) {
  ParseResult result = parse_schema(GetParam().input);
  ASSERT_TRUE(result.ok()) << GetParam().input << "\n  column " << result.error->offset + 1
                           << ": " << result.error->message << " [" << result.error->rule << "]";
  std::string printed = print_schema(*result.schema);
  EXPECT_EQ(printed, GetParam().canonical);
  // The canonical form is a fixed point.
  ParseResult again = parse_schema(printed);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(print_schema(*again.schema), printed);
}

// clang-format off
INSTANTIATE_TEST_SUITE_P(Schemas, Canonical, testing::Values(
  // names: namespace and overload
  CanonicalCase{"foo() -> ()", "foo() -> ()"},
  CanonicalCase{"aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
                "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"},
  CanonicalCase{"  my_ns::op.over ( Tensor  x ,int y )->Tensor  ", "my_ns::op.over(Tensor x, int y) -> Tensor"},
  // every leaf type
  CanonicalCase{"f(Tensor a, int b, float c, bool d, str e, Scalar f, ScalarType g, Layout h, Device i, DeviceIndex j) -> ()",
                "f(Tensor a, int b, float c, bool d, str e, Scalar f, ScalarType g, Layout h, Device i, DeviceIndex j) -> ()"},
  CanonicalCase{"f(MemoryFormat a, Generator b, Storage c, Stream d, Dimname e, complex f, SymInt g, SymFloat h, SymBool i, QScheme j, Any k) -> ()",
                "f(MemoryFormat a, Generator b, Storage c, Stream d, Dimname e, complex f, SymInt g, SymFloat h, SymBool i, QScheme j, Any k) -> ()"},
  CanonicalCase{"f(__torch__.torch.classes.ns.Foo x, t y) -> t", "f(__torch__.torch.classes.ns.Foo x, t y) -> t"},
  // optional, lists, fixed-size lists, in combination
  CanonicalCase{"f(Tensor?[] a, int[]? b, SymInt[1]? c, int [ 2 ] d, Tensor ? e, int?[3] g) -> ()",
                "f(Tensor?[] a, int[]? b, SymInt[1]? c, int[2] d, Tensor? e, int?[3] g) -> ()"},
  // alias annotations in every form
  CanonicalCase{"f(Tensor(a) x, Tensor(a!) y, Tensor! z) -> Tensor(a)", "f(Tensor(a) x, Tensor(a!) y, Tensor! z) -> Tensor(a)"},
  CanonicalCase{"f(Tensor( a! -> a | b ) x) -> Tensor(a|b)", "f(Tensor(a! -> a|b) x) -> Tensor(a|b)"},
  CanonicalCase{"chunk(Tensor(a -> *) self, int chunks, int dim=0) -> Tensor(a)[]",
                "chunk(Tensor(a -> *) self, int chunks, int dim=0) -> Tensor(a)[]"},
  CanonicalCase{"f(Tensor(a!)[] out) -> ()", "f(Tensor(a!)[] out) -> ()"},
  CanonicalCase{"f(t[](a!) self, t(c -> *) el) -> t[](a!)", "f(t[](a!) self, t(c -> *) el) -> t[](a!)"},
  CanonicalCase{"f(Tensor(*) x) -> ()", "f(Tensor(*) x) -> ()"},
  // kwarg-only marker, varargs, varret
  CanonicalCase{"f(*, Tensor x) -> ()", "f(*, Tensor x) -> ()"},
  CanonicalCase{"f(...) -> ...", "f(...) -> ..."},
  CanonicalCase{"f(Tensor x, ...) -> (Tensor, ...)", "f(Tensor x, ...) -> (Tensor, ...)"},
  CanonicalCase{"f(Tensor x) -> (...)", "f(Tensor x) -> (...)"},
  // defaults
  CanonicalCase{"f(int a=-1, float b=1e-5, float c=- 2.5, float d=1E5, float e=.5, float g=2., float h=1e+5) -> ()",
                "f(int a=-1, float b=1e-5, float c=-2.5, float d=1E5, float e=.5, float g=2., float h=1e+5) -> ()"},
  CanonicalCase{"f(complex a=1j, complex b=-0.5j, float c=0x1p3) -> ()", "f(complex a=1j, complex b=-0.5j, float c=0x1p3) -> ()"},
  CanonicalCase{R"(f(str a='''x'y''', str b="""q""", str c='\101') -> ())", R"(f(str a='''x'y''', str b="""q""", str c='\101') -> ())"},
  CanonicalCase{"f(bool a=True, bool b=False, Tensor? c=None, int? d=None) -> ()",
                "f(bool a=True, bool b=False, Tensor? c=None, int? d=None) -> ()"},
  CanonicalCase{R"(f(str a="valid", str b='none', str c='"\'\\', str d="\"'\\", str e="") -> ())",
                R"(f(str a="valid", str b='none', str c='"\'\\', str d="\"'\\", str e="") -> ())"},
  CanonicalCase{"f(int[] a=[], int[2] b=[ -2 , -1 ], SymInt[1] stride=1, int[1] dim=[-2,-1], float[]? c=None) -> ()",
                "f(int[] a=[], int[2] b=[-2,-1], SymInt[1] stride=1, int[1] dim=[-2,-1], float[]? c=None) -> ()"},
  CanonicalCase{"f(MemoryFormat a=contiguous_format, ScalarType? b=long, int reduction=Mean, Layout c=strided) -> ()",
                "f(MemoryFormat a=contiguous_format, ScalarType? b=long, int reduction=Mean, Layout c=strided) -> ()"},
  CanonicalCase{"f(Scalar a=1, Scalar b=2.5, Scalar c=True, float d=1) -> ()",
                "f(Scalar a=1, Scalar b=2.5, Scalar c=True, float d=1) -> ()"},
  // returns
  CanonicalCase{"f(Tensor x) -> (Tensor)", "f(Tensor x) -> (Tensor)"},
  CanonicalCase{"f(Tensor x) -> Tensor out", "f(Tensor x) -> Tensor out"},
  CanonicalCase{"f(Tensor x) -> (Tensor values, Tensor indices)", "f(Tensor x) -> (Tensor values, Tensor indices)"},
  CanonicalCase{"f(Tensor(a!) v, Tensor(b!) i) -> (Tensor(a!) values, Tensor(b!) indices)",
                "f(Tensor(a!) v, Tensor(b!) i) -> (Tensor(a!) values, Tensor(b!) indices)"},
  CanonicalCase{"f(Tensor x) -> (int, float, Tensor[])", "f(Tensor x) -> (int, float, Tensor[])"},
  // blanks between the tokens of the operator name (PyTorch's lexer skips them)
  CanonicalCase{"aten :: f . bar(Tensor x) -> ()", "aten::f.bar(Tensor x) -> ()"},
  // tuples (seen in vllm csrc/torch_bindings.cpp, torchcodec, pyg-lib)
  CanonicalCase{"f(Tensor! r, (int, int)? group_shape=None) -> ()", "f(Tensor! r, (int, int)? group_shape=None) -> ()"},
  CanonicalCase{"f((str,str,str)[] edge_types) -> ()", "f((str, str, str)[] edge_types) -> ()"},
  CanonicalCase{"f(((int, int), str) x, () y) -> ((int, int))", "f(((int, int), str) x, () y) -> ((int, int))"},
  // containers (Dict seen in pyg-lib; Future, RRef, Union in PyTorch's own tests)
  CanonicalCase{"f(Dict(str, Tensor) d, Dict( str , int[][] ) e, Dict(str, Tensor)? g=None) -> ()",
                "f(Dict(str, Tensor) d, Dict(str, int[][]) e, Dict(str, Tensor)? g=None) -> ()"},
  CanonicalCase{"f(Future(t) x, RRef(t) y, Await(int) z) -> Future(Tensor)[]", "f(Future(t) x, RRef(t) y, Await(int) z) -> Future(Tensor)[]"},
  CanonicalCase{"f(Union(int, str) x, Union(int, None)? y, Dict(str, Tensor)(a!) d) -> ()",
                "f(Union(int, str) x, Union(int, None)? y, Dict(str, Tensor)(a!) d) -> ()"},
  // None, NoneType, Any and the other leaf types PyTorch knows
  CanonicalCase{"f(None a, NoneType b, Any c, Quantizer d, AnyClassType e, AnyEnumType f) -> None",
                "f(None a, NoneType b, Any c, Quantizer d, AnyClassType e, AnyEnumType f) -> None"},
  // `!` on optional types and values (seen in vllm csrc/torch_bindings.cpp), nested lists
  CanonicalCase{"f(Tensor!? lse, int!? tokens, int[][] x, Tensor[]![] y) -> ()", "f(Tensor!? lse, int!? tokens, int[][] x, Tensor[]![] y) -> ()"},
  // trailing `*`, hexadecimal and integer-code defaults (seen in FBGEMM)
  CanonicalCase{"f(Tensor x, *) -> ()", "f(Tensor x, *) -> ()"},
  CanonicalCase{"f(int mask=0x2FFFFFF, ScalarType dst_type=39) -> ()", "f(int mask=0x2FFFFFF, ScalarType dst_type=39) -> ()"},
  // identifiers that are keywords elsewhere are fine as names
  CanonicalCase{"random_.from(Tensor(a!) self, int from, int? to) -> Tensor(a!)",
                "random_.from(Tensor(a!) self, int from, int? to) -> Tensor(a!)"}
));
// clang-format on

TEST(Structure, NamesArgumentsAndReturns) {
  ParseResult result = parse_schema(
      "aten::topk.values(Tensor self, SymInt k, int dim=-1, bool largest=True, *, "
      "Tensor(a!) values, Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)");
  ASSERT_TRUE(result.ok());
  const FunctionSchema& s = *result.schema;
  EXPECT_EQ(s.op.name, "aten::topk");
  EXPECT_EQ(s.op.ns(), "aten");
  EXPECT_EQ(s.op.base_name(), "topk");
  EXPECT_EQ(s.op.overload, "values");
  EXPECT_EQ(s.op.full(), "aten::topk.values");
  ASSERT_EQ(s.arguments.size(), 6u);
  EXPECT_EQ(s.arguments[0].name, "self");
  EXPECT_TRUE(s.arguments[0].type.is_base(BaseType::Tensor));
  EXPECT_TRUE(s.arguments[1].type.is_base(BaseType::SymInt));
  ASSERT_TRUE(s.arguments[2].default_value);
  EXPECT_EQ(s.arguments[2].default_value->kind, DefaultValue::Kind::Int);
  EXPECT_EQ(s.arguments[2].default_value->text, "-1");
  EXPECT_EQ(s.arguments[3].default_value->kind, DefaultValue::Kind::Bool);
  EXPECT_FALSE(s.arguments[3].kwarg_only);
  EXPECT_TRUE(s.arguments[4].kwarg_only);
  EXPECT_TRUE(s.arguments[4].type.is_mutable());
  ASSERT_EQ(s.returns.size(), 2u);
  EXPECT_EQ(s.returns[1].name, "indices");
  EXPECT_EQ(sets(s.returns[1].type.alias->before), std::vector<std::string_view>{"b"});
  EXPECT_TRUE(s.returns_parenthesized);
  EXPECT_FALSE(s.is_vararg);
  EXPECT_FALSE(s.is_varret);
}

TEST(Structure, TypeTrees) {
  ParseResult result =
      parse_schema("f(Tensor?[] a, int[]? b, SymInt[1]? c, Tensor(a)[] d, Tensor[](b!) e) -> ()");
  ASSERT_TRUE(result.ok());
  const auto& args = result.schema->arguments;
  // Tensor?[] -> List(Optional(Tensor))
  EXPECT_TRUE(args[0].type.is_list());
  EXPECT_TRUE(args[0].type.element().is_optional());
  EXPECT_TRUE(args[0].type.element().element().is_base(BaseType::Tensor));
  EXPECT_TRUE(args[0].type.is_tensor_like());
  // int[]? -> Optional(List(int))
  EXPECT_TRUE(args[1].type.is_optional());
  EXPECT_TRUE(args[1].type.element().is_list());
  EXPECT_FALSE(args[1].type.element().fixed_size);
  EXPECT_FALSE(args[1].type.is_tensor_like());
  // SymInt[1]? -> Optional(List[1](SymInt))
  EXPECT_EQ(args[2].type.element().fixed_size, 1);
  EXPECT_TRUE(args[2].type.leaf().is_base(BaseType::SymInt));
  // Tensor(a)[]: the annotation is on the element
  EXPECT_FALSE(args[3].type.alias);
  ASSERT_TRUE(args[3].type.element().alias);
  EXPECT_EQ(sets(args[3].type.any_alias()->before), std::vector<std::string_view>{"a"});
  // Tensor[](b!): the annotation is on the list
  ASSERT_TRUE(args[4].type.alias);
  EXPECT_TRUE(args[4].type.alias->is_write);
}

TEST(Structure, AliasSets) {
  ParseResult result = parse_schema("f(Tensor(a! -> a|b) x, Tensor(c -> *) y, Tensor! z) -> ()");
  ASSERT_TRUE(result.ok());
  const auto& args = result.schema->arguments;
  const AliasInfo& x = *args[0].type.alias;
  EXPECT_EQ(sets(x.before), std::vector<std::string_view>{"a"});
  EXPECT_EQ(sets(x.after), (std::vector<std::string_view>{"a", "b"}));
  EXPECT_TRUE(x.is_write);
  EXPECT_TRUE(x.has_arrow);
  EXPECT_EQ(sets(args[1].type.alias->after), std::vector<std::string_view>{"*"});
  EXPECT_FALSE(args[1].type.alias->is_write);
  EXPECT_EQ(sets(args[2].type.alias->before), std::vector<std::string_view>{"$0"});
  EXPECT_TRUE(args[2].type.alias->after.empty());
  EXPECT_TRUE(args[2].type.alias->is_write);
  EXPECT_TRUE(args[2].type.alias->is_fresh);
  EXPECT_EQ(print_alias(*args[2].type.alias), "!");
}

// PyTorch's alias model: without `->` the sets after equal the sets before; each bare `!` is a
// fresh set `$N`, numbered in order of appearance over arguments and returns.
TEST(Structure, AliasModelAsPyTorch) {
  ParseResult result = parse_schema("f(Tensor(a!) self, Tensor! x, Tensor!? y, Tensor(a|b) z) -> Tensor!");
  ASSERT_TRUE(result.ok());
  const auto& args = result.schema->arguments;
  EXPECT_EQ(sets(args[0].type.alias->after), std::vector<std::string_view>{"a"});
  EXPECT_FALSE(args[0].type.alias->has_arrow);
  EXPECT_EQ(sets(args[1].type.alias->before), std::vector<std::string_view>{"$0"});
  EXPECT_EQ(sets(args[2].type.any_alias()->before), std::vector<std::string_view>{"$1"});
  EXPECT_EQ(sets(args[3].type.alias->after), (std::vector<std::string_view>{"a", "b"}));
  EXPECT_EQ(sets(result.schema->returns[0].type.alias->before), std::vector<std::string_view>{"$2"});
  EXPECT_EQ(print_schema(*result.schema), "f(Tensor(a!) self, Tensor! x, Tensor!? y, Tensor(a|b) z) -> Tensor!");
}

// The annotation of a whole argument: a list's own, or one with no sets carrying the element's.
TEST(Structure, ArgumentAliasOfLists) {
  ParseResult result = parse_schema("f(Tensor(a!)[] x, Tensor[](b) y, Tensor(a)?[] z, int w, Dict(str, Tensor)(c) d) -> ()");
  ASSERT_TRUE(result.ok());
  const auto& args = result.schema->arguments;
  auto x = argument_alias(args[0].type);
  ASSERT_TRUE(x);
  EXPECT_TRUE(x->before.empty());
  EXPECT_TRUE(x->is_write);
  ASSERT_TRUE(x->contained);
  EXPECT_EQ(sets(x->contained->before), std::vector<std::string_view>{"a"});
  auto y = argument_alias(args[1].type);
  EXPECT_EQ(sets(y->before), std::vector<std::string_view>{"b"});
  auto z = argument_alias(args[2].type);
  ASSERT_TRUE(z);
  EXPECT_FALSE(z->is_write);
  EXPECT_FALSE(argument_alias(args[3].type));
  EXPECT_EQ(sets(argument_alias(args[4].type)->before), std::vector<std::string_view>{"c"});
}

TEST(Structure, ContainerTypes) {
  ParseResult result = parse_schema("f((int, Tensor(a))? x, Dict(str, int[]) d, Union(int, str, None) u, Future(t) fut) -> ()");
  ASSERT_TRUE(result.ok());
  const auto& args = result.schema->arguments;
  const Type& tuple = args[0].type.element();
  EXPECT_EQ(tuple.kind, Type::Kind::Tuple);
  ASSERT_EQ(tuple.contained().size(), 2u);
  EXPECT_TRUE(tuple.contained()[0].is_base(BaseType::Int));
  EXPECT_TRUE(tuple.contained()[1].alias);
  EXPECT_FALSE(argument_alias(args[0].type));  // PyTorch keeps no alias of a tuple's element
  EXPECT_EQ(args[1].type.kind, Type::Kind::Dict);
  EXPECT_TRUE(args[1].type.contained()[1].is_list());
  EXPECT_EQ(args[2].type.kind, Type::Kind::Union);
  EXPECT_TRUE(args[2].type.contained()[2].is_base(BaseType::NoneType));
  EXPECT_EQ(args[3].type.kind, Type::Kind::Future);
  EXPECT_EQ(args[3].type.contained()[0].name, "t");
  EXPECT_EQ(print_type(args[1].type), "Dict(str, int[])");
  EXPECT_EQ(&args[0].type.leaf(), &tuple);
}

TEST(Structure, DefaultKindsAndRanges) {
  std::string text = "f(int[2] a=[1, 2], float b=-1.5, str c='x', MemoryFormat d=contiguous_format, Tensor? e=None) -> ()";
  ParseResult result = parse_schema(text);
  ASSERT_TRUE(result.ok());
  const auto& args = result.schema->arguments;
  const DefaultValue& list = *args[0].default_value;
  EXPECT_EQ(list.kind, DefaultValue::Kind::List);
  EXPECT_EQ(list.text, "[1,2]");
  ASSERT_EQ(list.items.size(), 2u);
  EXPECT_EQ(list.items[1].text, "2");
  EXPECT_EQ(text.substr(list.range.begin, list.range.end - list.range.begin), "[1, 2]");
  EXPECT_EQ(args[1].default_value->kind, DefaultValue::Kind::Float);
  EXPECT_EQ(args[2].default_value->kind, DefaultValue::Kind::String);
  EXPECT_EQ(args[3].default_value->kind, DefaultValue::Kind::Identifier);
  EXPECT_EQ(args[4].default_value->kind, DefaultValue::Kind::None);
  const Argument& d = args[3];
  EXPECT_EQ(text.substr(d.name_range.begin, d.name_range.end - d.name_range.begin), "d");
  EXPECT_EQ(text.substr(d.type.range.begin, d.type.range.end - d.type.range.begin), "MemoryFormat");
}

TEST(Structure, VarargsAndVarret) {
  ParseResult result = parse_schema("f(...) -> ...");
  ASSERT_TRUE(result.ok());
  EXPECT_TRUE(result.schema->is_vararg);
  EXPECT_TRUE(result.schema->is_varret);
  EXPECT_TRUE(result.schema->arguments.empty());
  EXPECT_TRUE(result.schema->returns.empty());
}

TEST(Printer, ModelBuiltByHandPrintsCanonically) {
  FunctionSchema s;
  s.op.name = "ns::op";
  Argument a;
  a.name = "x";
  a.type.name = "int";
  a.type.base = BaseType::Int;
  Argument r1 = a, r2 = a;
  r1.name = {};
  r2.name = {};
  s.arguments.push_back(a);
  s.returns = {r1, r2};  // two returns need parentheses even when not flagged
  EXPECT_EQ(print_schema(s), "ns::op(int x) -> (int, int)");
  s.returns.clear();
  EXPECT_EQ(print_schema(s), "ns::op(int x) -> ()");
}

}  // namespace
}  // namespace schemac::schema
