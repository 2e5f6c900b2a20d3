// Reading entries: fields decoded with their locations, and the shape errors of each field.
#include <gtest/gtest.h>

#include "schemac/native_functions/native_functions.h"

namespace schemac::schema {

using native_functions::NativeFunctionsLoad;

namespace {

NativeFunctionsLoad load(const std::string& text) { return native_functions::load_native_functions("f.yaml", text); }

TEST(NativeFunctions, ReadsEveryFieldWithLocations) {
  NativeFunctionsLoad r = load(
      "- func: add.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)\n"
      "  variants: function, method\n"
      "  structured: True\n"
      "  structured_inherits: TensorIteratorBase\n"
      "  dispatch:\n"
      "    CPU, CUDA: add_out\n"
      "  tags: [core, pointwise]\n"
      "  device_check: NoCheck\n"
      "  device_guard: False\n"
      "  autogen: add.Scalar_out, add_functional\n"
      "  python_module: nn\n"
      "  cpp_no_default_args: ['a']\n");
  ASSERT_TRUE(r.diagnostics.empty()) << r.diagnostics[0].message;
  ASSERT_EQ(r.file.functions.size(), 1u);
  const native_functions::NativeFunction& f = r.file.functions[0];
  ASSERT_TRUE(f.schema);
  EXPECT_EQ(f.schema->op.full(), "add.out");
  EXPECT_TRUE(f.function_variant);
  EXPECT_TRUE(f.method_variant);
  EXPECT_TRUE(f.structured);
  EXPECT_FALSE(f.device_guard);
  ASSERT_EQ(f.dispatch.size(), 2u);
  EXPECT_EQ(f.dispatch[0].key.name, "CPU");
  EXPECT_EQ(f.dispatch[0].key.location.line, 6u);
  EXPECT_EQ(f.dispatch[0].key.location.column, 5u);
  EXPECT_EQ(f.dispatch[1].key.name, "CUDA");
  EXPECT_EQ(f.dispatch[1].key.location.column, 10u);
  EXPECT_EQ(f.dispatch[1].kernel.name, "add_out");
  EXPECT_EQ(f.dispatch[1].written_as, "CPU, CUDA");
  ASSERT_EQ(f.tags.size(), 2u);
  EXPECT_EQ(f.tags[1].name, "pointwise");
  EXPECT_EQ(f.tags[1].location.column, 16u);
  ASSERT_EQ(f.autogen.size(), 2u);
  EXPECT_EQ(f.autogen[1].name, "add_functional");
  EXPECT_EQ(f.autogen[1].location.column, 28u);
  EXPECT_EQ(f.device_check->name, "NoCheck");
  EXPECT_EQ(f.python_module->name, "nn");
  EXPECT_EQ(f.cpp_no_default_args.at(0).name, "a");
  EXPECT_EQ(r.file.field_location(f, "dispatch").line, 5u);
  // Bytes 4..7 of the func string ("out(") sit at column 9 + 4.
  diagnostics::Location in_func = r.file.func_location(f, TextRange{4, 7});
  EXPECT_EQ(in_func.column, 13u);
  EXPECT_EQ(in_func.end_column, 16u);
}

// A long file is read in runs of entries on several threads: functions and diagnostics still
// come out in file order.
TEST(NativeFunctions, LongFileKeepsFileOrder) {
  std::string text;
  size_t mappings = 0;
  for (int i = 0; i < 1200; ++i) {
    if (i % 97 == 0) {
      text += "- just a scalar\n";  // entry-not-mapping
    } else {
      text += "- func: op" + std::to_string(i) + "(Tensor self) -> Tensor\n";
      if (i % 89 == 0) text += "  no_such_field: 1\n";
      ++mappings;
    }
  }
  NativeFunctionsLoad r = load(text);
  ASSERT_EQ(r.file.functions.size(), mappings);
  for (size_t i = 1; i < r.file.functions.size(); ++i)
    EXPECT_LT(r.file.functions[i - 1].location.line, r.file.functions[i].location.line);
  ASSERT_GT(r.diagnostics.size(), 20u);
  for (size_t i = 1; i < r.diagnostics.size(); ++i)
    EXPECT_LT(r.diagnostics[i - 1].location.line, r.diagnostics[i].location.line) << i;
}

TEST(NativeFunctions, DefaultsWhenFieldsAreAbsent) {
  NativeFunctionsLoad r = load("- func: relu(Tensor self) -> Tensor\n");
  ASSERT_TRUE(r.diagnostics.empty());
  const native_functions::NativeFunction& f = r.file.functions.at(0);
  EXPECT_TRUE(f.function_variant);
  EXPECT_FALSE(f.method_variant);
  EXPECT_FALSE(f.has_dispatch);
  EXPECT_TRUE(f.device_guard);
  EXPECT_FALSE(f.structured);
}

TEST(NativeFunctions, EmptyDispatchIsADispatchSection) {
  NativeFunctionsLoad r = load("- func: relu(Tensor self) -> Tensor\n  dispatch: {}\n");
  ASSERT_TRUE(r.diagnostics.empty());
  EXPECT_TRUE(r.file.functions.at(0).has_dispatch);
  EXPECT_TRUE(r.file.functions.at(0).dispatch.empty());
}

struct ShapeCase {
  const char* yaml;
  const char* rule;
  const char* message;
  uint32_t line, column;
};

class FieldShape : public ::testing::TestWithParam<ShapeCase> {};

TEST_P(FieldShape, IsALocatedError) {
  const ShapeCase& c = GetParam();
  NativeFunctionsLoad r = load(c.yaml);
  ASSERT_EQ(r.diagnostics.size(), 1u) << c.yaml;
  const diagnostics::Diagnostic& d = r.diagnostics[0];
  EXPECT_EQ(d.rule, c.rule);
  EXPECT_EQ(d.message, c.message);
  EXPECT_EQ(d.location.line, c.line);
  EXPECT_EQ(d.location.column, c.column);
}

INSTANTIATE_TEST_SUITE_P(
    Fields, FieldShape,
    ::testing::Values(
        ShapeCase{"", "empty-file", "the file has no entries", 1, 1},
        ShapeCase{"a: b\n", "top-level-not-list",
                  "the top level must be a list of entries ('- func: ...'), not a mapping", 1, 1},
        ShapeCase{"- func: a() -> ()\n-\n", "entry-not-mapping",
                  "an entry must be a mapping with a 'func' field, not nothing", 2, 1},
        ShapeCase{"- variants: method\n", "missing-func", "entry has no 'func' field", 1, 3},
        ShapeCase{"- func: [a]\n", "field-type", "'func' must be a schema string, not a list", 1, 9},
        ShapeCase{"- func: a() -> ()\n  structured: maybe\n", "field-type",
                  "'structured' must be True or False, not 'maybe'", 2, 15},
        ShapeCase{"- func: a() -> ()\n  structured: 'True'\n", "field-type",
                  "'structured' must be True or False, not 'True'", 2, 15},
        ShapeCase{"- func: a() -> ()\n  dispatch: CPU\n", "field-type",
                  "'dispatch' must be a mapping of dispatch keys to kernel names, not a scalar", 2, 13},
        ShapeCase{"- func: a() -> ()\n  dispatch:\n    CPU:\n", "field-type",
                  "dispatch key 'CPU' needs a kernel name", 3, 5},
        ShapeCase{"- func: a() -> ()\n  variants: function,\n", "invalid-variants",
                  "empty variant in 'variants'", 2, 22},
        ShapeCase{"- func: a() -> ()\n  dispatch:\n    CPU,, CUDA: k\n", "unknown-dispatch-key",
                  "empty dispatch key name", 3, 9},
        ShapeCase{"- func: a() -> ()\n  autogen: a.out, b..c\n", "invalid-operator-name",
                  "'b..c' is not an operator name (expected name or name.overload)", 2, 19},
        ShapeCase{"- func: a() -> ()\n  ufunc_inner_loop:\n    Generc: add (All)\n", "field-type",
                  "unknown ufunc key 'Generc'", 3, 5},
        ShapeCase{"- func: a() -> ()\n  tags: {a: b}\n", "field-type",
                  "'tags' must be a list or a single name, not a mapping", 2, 9},
        ShapeCase{"- func: a() -> ()\n  python_module: ''\n", "field-type", "'python_module' is empty", 2, 18},
        ShapeCase{"- func: a() -> ()\n  3: x\n", "unknown-field", "unknown field '3'", 2, 3}));

TEST(NativeFunctions, SchemaErrorsPointInsideQuotedFuncStrings) {
  // Double-quoted: the escaped quotes count one byte each in the string, two in the file.
  NativeFunctionsLoad r = load("- func: \"f(str a=\\\"x\\\", *, Tensr b) -> Tensor\"\n");
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].rule, "unknown-type");
  EXPECT_EQ(r.diagnostics[0].location.column, 28u);  // the T of Tensr
  // Single-quoted: '' is one quote in the string.
  r = load("- func: 'f(str a=''x'', *, Tensr b) -> Tensor'\n");
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].location.column, 28u);
}

TEST(NativeFunctions, FieldNamesListTheWholeFormat) {
  EXPECT_EQ(native_functions::native_function_field_names().size(), 18u);
  EXPECT_EQ(native_functions::native_function_field_names().front(), "func");
}

}  // namespace
}  // namespace schemac::schema
