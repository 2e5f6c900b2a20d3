// The model's ownership of its text: names are views into a copy the schema keeps, so they outlive
// the string that was parsed, survive copies and moves, and set_operator_name adds a name the
// schema owns without disturbing the others.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>

#include "schemac/schema/parser.h"
#include "schemac/schema/printer.h"

namespace schemac::schema {
namespace {

FunctionSchema parse_from_temporary(const char* text) {
  auto owned = std::make_unique<std::string>(text);
  ParseResult result = parse_schema(*owned);
  owned.reset();  // the parsed text is gone; the schema must not need it
  EXPECT_TRUE(result.ok());
  return std::move(*result.schema);
}

constexpr const char* kSchema =
    "ns::add.out(Tensor(a) self, Tensor?[] others, *, Scalar alpha=1, Tensor(b!) out) -> "
    "Tensor(b!)";

TEST(Model, NamesOutliveTheParsedString) {
  FunctionSchema s = parse_from_temporary(kSchema);
  EXPECT_EQ(s.op.name, "ns::add");
  EXPECT_EQ(s.op.overload, "out");
  EXPECT_EQ(s.arguments[1].name, "others");
  EXPECT_EQ(s.arguments[1].type.element().element().name, "Tensor");
  EXPECT_EQ(s.returns[0].type.alias->before.front(), "b");
  EXPECT_EQ(s.text, kSchema);
  EXPECT_EQ(print_schema(s), kSchema);
}

TEST(Model, CopiesShareTheTextAndOutliveTheOriginal) {
  auto original = std::make_unique<FunctionSchema>(parse_from_temporary(kSchema));
  FunctionSchema copy = *original;
  EXPECT_EQ(copy.storage.get(), original->storage.get());
  original.reset();
  EXPECT_EQ(print_schema(copy), kSchema);
}

TEST(Model, SetOperatorNameOwnsTheNewNameAndKeepsTheRest) {
  FunctionSchema s = parse_from_temporary("relu(Tensor(a!) self) -> Tensor(a!)");
  const TextRange self_range = s.arguments[0].name_range;
  {
    std::string name = "aten::relu";
    set_operator_name(s, name);
    name.assign(name.size(), 'x');  // the schema must have copied it
  }
  EXPECT_EQ(s.op.name, "aten::relu");
  EXPECT_EQ(print_schema(s), "aten::relu(Tensor(a!) self) -> Tensor(a!)");
  // Ranges still index the text as parsed.
  EXPECT_EQ(s.text.substr(self_range.begin, self_range.end - self_range.begin), "self");
  set_operator_name(s, "aten::relu_");  // again, on a schema whose name it owns already
  EXPECT_EQ(print_schema(s), "aten::relu_(Tensor(a!) self) -> Tensor(a!)");
}

TEST(Model, SetOperatorNameOnASchemaBuiltByHand) {
  FunctionSchema s;
  s.op.name = "op";
  Argument a;
  a.name = "x";
  a.type.name = "int";
  a.type.base = BaseType::Int;
  s.arguments.push_back(a);
  set_operator_name(s, "ns::op");
  EXPECT_EQ(print_schema(s), "ns::op(int x) -> ()");
}

// The namespace ends at the last "::", as std::string_view::rfind("::") finds it, whatever the
// name holds (set_operator_name and schemas built by hand take any text).
TEST(OperatorNameSplit, NamespaceEndsAtTheLastDoubleColon) {
  struct Case {
    std::string_view name, ns, base;
  };
  for (const Case& c : {Case{"add", "", "add"}, Case{"aten::add", "aten", "add"},
                        Case{"a::b::c", "a::b", "c"}, Case{"a:::b", "a:", "b"},
                        Case{"a::b:c", "a", "b:c"}, Case{"::x", "", "x"}, Case{"a:", "", "a:"},
                        Case{":", "", ":"}, Case{"", "", ""}, Case{"x::", "x", ""}}) {
    OperatorName op;
    op.name = c.name;
    EXPECT_EQ(op.namespace_end(), c.name.rfind("::")) << c.name;
    EXPECT_EQ(op.ns(), c.ns) << c.name;
    EXPECT_EQ(op.base_name(), c.base) << c.name;
  }
}

}  // namespace
}  // namespace schemac::schema
