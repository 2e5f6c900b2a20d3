// Trace value specs and schema defaults.
#include <gtest/gtest.h>

#include "schemac/core/tensor.h"
#include "schemac/schema/parser.h"
#include "schemac/value_specs/value_spec.h"

namespace schemac::value_specs {
namespace {

struct SpecCase {
  const char* spec;
  const char* described;  // describe_value of the result
};

TEST(ValueSpec, ReadsEveryKind) {
  const SpecCase cases[] = {
      {"cpu:float32[2,3]", "Tensor cpu:float32[2, 3]"},
      {"cpu:int64[4]", "Tensor cpu:int64[4]"},
      {"cpu:float16[]", "Tensor cpu:float16[]"},
      {"cpu:bool[2, 2]", "Tensor cpu:bool[2, 2]"},
      {"3", "3"},
      {"-1", "-1"},
      {"2.5", "2.5"},
      {"1e-3", "0.001"},
      {"True", "True"},
      {"False", "False"},
      {"None", "None"},
      {"[0,1]", "[0, 1]"},
      {"[]", "[]"},
  };
  for (const SpecCase& c : cases) {
    const ValueSpecResult r = parse_value_spec(c.spec);
    ASSERT_TRUE(r.ok()) << c.spec << ": " << r.error;
    EXPECT_EQ(describe_value(*r.value), c.described) << c.spec;
  }
}

TEST(ValueSpec, TensorsCountFromOne) {
  const ValueSpecResult r = parse_value_spec("cpu:float32[2,2]");
  ASSERT_TRUE(r.ok());
  const core::Tensor& t = r.value->to_tensor();
  EXPECT_EQ(t.item_at<float>({0, 0}), 1.0f);
  EXPECT_EQ(t.item_at<float>({1, 1}), 4.0f);
}

TEST(ValueSpec, ElementTypeNames) {
  const ValueSpecResult r = parse_value_spec("float16");
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r.value->is_int());  // ScalarType values are stored as their integer
}

struct BadCase {
  const char* spec;
  const char* message_part;
};

TEST(ValueSpec, RejectsBadSpecsSayingWhy) {
  const BadCase cases[] = {
      {"", "empty value spec"},
      {"cpu:float32", "must look like 'cpu:float32[2,3]'"},
      {"tpu:float32[2]", "unknown device 'tpu'"},
      {"cpu:float99[2]", "unknown element type 'float99'"},
      {"cpu:float32[2,x]", "bad sizes '[2,x]'"},
      {"cpu:float32[-2]", "negative size -2"},
      // Found by fuzz_value_spec: asked for 8 TB.
      {"cpu:long[2,503232032325]", "is too large; trace makes tensors of at most 16777216 elements"},
      {"cpu:float32[4294967296,4294967296,4294967296]", "is too large"},
      {"cpu:bool[0,10100616602,100616604616603,553]", "is too large"},  // zero elements, overflowing strides
      {"[1,a]", "[1,a]:4: cannot read value spec 'a'"},
      {"banana", "cannot read value spec 'banana'"},
  };
  for (const BadCase& c : cases) {
    const ValueSpecResult r = parse_value_spec(c.spec);
    EXPECT_FALSE(r.ok()) << c.spec;
    EXPECT_NE(r.error.find(c.message_part), std::string::npos) << c.spec << ": " << r.error;
  }
}

// Strings, tuples, dicts and lists of anything, nested (forms for `Dict(str, Tensor)`,
// `(int, int)?`, `(str, str, str)[]` arguments).
TEST(ValueSpec, ReadsNestedValues) {
  const SpecCase cases[] = {
      {"'text'", "'text'"},
      {"\"it's\"", "'it\\'s'"},
      {"'a\\nb'", "'a\\nb'"},
      {"(1, cpu:float32[2])", "(1, Tensor cpu:float32[2])"},
      {"()", "()"},
      {"(1,)", "(1,)"},
      {"( 1 , 2 , )", "(1, 2)"},
      {"{'a': 1, 'b': 2}", "{'a': 1, 'b': 2}"},
      {"{\"k\": cpu:float32[2]}", "{'k': Tensor cpu:float32[2]}"},
      {"{}", "{}"},
      {"{1: 'one', True: None}", "{1: 'one', True: None}"},
      {"[(1, 2), (3, 4)]", "[(1, 2), (3, 4)]"},
      {"[1.5, 2.5]", "[1.5, 2.5]"},
      {"[True, False]", "[True, False]"},
      {"[cpu:float32[2], cpu:int64[1]]", "[Tensor cpu:float32[2], Tensor cpu:int64[1]]"},
      {"['a', 1]", "['a', 1]"},
      {"{'a': (1, [2, 3]), 'b': {'c': None}}", "{'a': (1, [2, 3]), 'b': {'c': None}}"},
  };
  for (const SpecCase& c : cases) {
    const ValueSpecResult r = parse_value_spec(c.spec);
    ASSERT_TRUE(r.ok()) << c.spec << ": " << r.error;
    EXPECT_EQ(describe_value(*r.value), c.described) << c.spec;
  }
  const ValueSpecResult tuple = parse_value_spec("(1, 'a')");
  ASSERT_TRUE(tuple.ok());
  ASSERT_TRUE(tuple.value->is_tuple());
  EXPECT_EQ(tuple.value->to_tuple()[1].to_string(), "a");
  const ValueSpecResult dict = parse_value_spec("{'b': 2, 'a': 1}");
  ASSERT_TRUE(dict.ok());
  ASSERT_TRUE(dict.value->is_dict());
  EXPECT_EQ(dict.value->to_dict()[0].first.to_string(), "b");  // in the order written
  EXPECT_TRUE(parse_value_spec("[1.5, 2.5]").value->is_double_list());
  EXPECT_TRUE(parse_value_spec("[cpu:float32[1]]").value->is_tensor_list());
}

// A malformed spec names itself and the 1-based column, like a file position.
TEST(ValueSpec, MalformedNestedSpecsGiveTheColumn) {
  const BadCase cases[] = {
      {"{'a': 1,", "{'a': 1,:1: '{' is never closed"},
      {"{'a':  }", "{'a':  }:8: expected a value, found '}'"},
      {"{'a' 1}", "{'a' 1}:6: expected ':' after a dict key, found '1'"},
      {"{'a': 1, 'a': 2}", "{'a': 1, 'a': 2}:10: duplicate key 'a'"},
      {"(1 2)", "(1 2):4: expected ',' or ')', found '2'"},
      {"(1, 2", "(1, 2:1: '(' is never closed"},
      {"[1, 2", "[1, 2:1: '[' is never closed"},
      {"{", "{:1: '{' is never closed"},
      {"'abc", "'abc:1: the string is never closed"},
      {"'a\\qb'", "'a\\qb':3: unknown escape '\\q' in a string"},
      {"(1, ,)", "(1, ,):5: expected a value, found ','"},
      {"1 2", "1 2:3: unexpected '2' after the value"},
      {"(1, cpu:float99[2])", "(1, cpu:float99[2]):5: unknown element type 'float99'"},
      {"{'k': x}", "{'k': x}:7: cannot read value spec 'x'"},
      {"((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((1))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))",
       "values nest too deeply"},
  };
  for (const BadCase& c : cases) {
    const ValueSpecResult r = parse_value_spec(c.spec);
    EXPECT_FALSE(r.ok()) << c.spec;
    EXPECT_NE(r.error.find(c.message_part), std::string::npos) << c.spec << ": " << r.error;
  }
}

// Values for tuple, dict and None arguments are checked against the schema type, element by
// element; ints widen to floats inside them.
TEST(ValueSpec, FitsTheArgumentType) {
  auto fitted = [](std::string_view spec, std::string_view schema_text) {
    const schema::ParseResult parsed = schema::parse_schema(schema_text);
    EXPECT_TRUE(parsed.ok()) << schema_text;
    const ValueSpecResult v = parse_value_spec(spec);
    EXPECT_TRUE(v.ok()) << spec << ": " << v.error;
    const ValueSpecResult r = fit_to_type(*v.value, parsed.schema->arguments[0].type);
    return r.ok() ? describe_value(*r.value) : "error: " + r.error;
  };
  EXPECT_EQ(fitted("{'a': cpu:float32[2]}", "f(Dict(str, Tensor) x) -> ()"), "{'a': Tensor cpu:float32[2]}");
  EXPECT_EQ(fitted("{'a': 1}", "f(Dict(str, float) x) -> ()"), "{'a': 1}");  // 1.0, described as 1
  EXPECT_TRUE(fitted("(2, 3)", "f((int, float)? x) -> ()") == "(2, 3)");
  EXPECT_EQ(fitted("None", "f((int, int)? x=None) -> ()"), "None");
  EXPECT_EQ(fitted("[]", "f((str, str)[] x) -> ()"), "[]");
  EXPECT_EQ(fitted("[('a', 'b')]", "f((str, str)[] x) -> ()"), "[('a', 'b')]");
  EXPECT_EQ(fitted("None", "f(None x) -> ()"), "None");
  EXPECT_EQ(fitted("3", "f(int x) -> ()"), "3");
  EXPECT_EQ(fitted("3", "f(Tensor x) -> ()"), "3");  // a leaf at the top level passes as it is
  EXPECT_EQ(fitted("{'a': 5}", "f(Dict(str, Tensor) x) -> ()"),
            "error: {'a': 5} does not fit 'Dict(str, Tensor)': 5 is not a Tensor");
  EXPECT_EQ(fitted("{1: 5}", "f(Dict(str, int) x) -> ()"),
            "error: {1: 5} does not fit 'Dict(str, int)': 1 is not a str");
  EXPECT_EQ(fitted("(1, 2, 3)", "f((int, int)? x) -> ()"),
            "error: (1, 2, 3) does not fit '(int, int)?': (1, 2, 3) is not a tuple (int, int)");
  EXPECT_EQ(fitted("[1, 2]", "f((int, int) x) -> ()"),
            "error: [1, 2] does not fit '(int, int)': [1, 2] is not a tuple (int, int)");
  EXPECT_EQ(fitted("3", "f(None x) -> ()"), "error: 3 does not fit 'None': 3 is not None");
  const schema::ParseResult parsed = schema::parse_schema("f(Dict(str, float) x) -> ()");
  const ValueSpecResult widened = fit_to_type(*parse_value_spec("{'a': 1}").value, parsed.schema->arguments[0].type);
  ASSERT_TRUE(widened.ok());
  EXPECT_TRUE(widened.value->to_dict()[0].second.is_double());
}

TEST(ValueSpec, SchemaDefaults) {
  using Kind = schema::DefaultValue::Kind;
  static const schema::DefaultValue kZeroOne[] = {{Kind::Int, "0", {}, {}}, {Kind::Int, "1", {}, {}}};
  const struct {
    schema::DefaultValue value;
    const char* described;
  } cases[] = {
      {{Kind::Int, "1", {}, {}}, "1"},
      {{Kind::Float, "1e-05", {}, {}}, "1e-05"},
      {{Kind::Bool, "False", {}, {}}, "False"},
      {{Kind::None, "None", {}, {}}, "None"},
      {{Kind::List, "[0,1]", kZeroOne, {}}, "[0, 1]"},
      {{Kind::Identifier, "contiguous_format", {}, {}}, "0"},
  };
  for (const auto& c : cases) {
    const ValueSpecResult r = value_of_default(c.value);
    ASSERT_TRUE(r.ok()) << c.value.text << ": " << r.error;
    EXPECT_EQ(describe_value(*r.value), c.described) << c.value.text;
  }
  const ValueSpecResult bad = value_of_default({Kind::String, "'mean'", {}, {}});
  EXPECT_FALSE(bad.ok());
  EXPECT_NE(bad.error.find("cannot build the default ''mean''"), std::string::npos) << bad.error;
}

}  // namespace
}  // namespace schemac::value_specs
