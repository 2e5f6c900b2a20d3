// Trace value specs and schema defaults.
#include <gtest/gtest.h>

#include "schemac/core/tensor.h"
#include "value_spec.h"

namespace schemac::inspect {
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
  const dispatch::Tensor& t = r.value->to_tensor();
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
      {"[1,a]", "bad list '[1,a]'"},
      {"banana", "cannot read value spec 'banana'"},
  };
  for (const BadCase& c : cases) {
    const ValueSpecResult r = parse_value_spec(c.spec);
    EXPECT_FALSE(r.ok()) << c.spec;
    EXPECT_NE(r.error.find(c.message_part), std::string::npos) << c.spec << ": " << r.error;
  }
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
}  // namespace schemac::inspect
