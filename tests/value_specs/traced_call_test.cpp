// Specs made from a schema's types alone (report's calls of composite operators), and the
// arguments built from them and from defaults, as trace builds them.
#include <gtest/gtest.h>

#include "schemac/schema/parser.h"
#include "schemac/value_specs/traced_call.h"
#include "schemac/value_specs/value_spec.h"

namespace schemac::value_specs {
namespace {

TEST(TracedCall, SpecsFromTheSchemaAlone) {
  const schema::ParseResult parsed = schema::parse_schema(
      "f(Tensor a, int b, float c, Scalar d, bool e, int[] f, Tensor[] g, Tensor? h, "
      "ScalarType i, str j, Device k, Scalar alpha=1) -> Tensor");
  ASSERT_TRUE(parsed.ok());
  const std::vector<std::optional<std::string>> want = {
      "cpu:float32[2,2]",   "1",    "1.0",     "1",          "False",     "[2,2]",
      "[cpu:float32[2,2]]", "None", "float32", std::nullopt, std::nullopt};
  std::vector<std::string> specs;
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(spec_from_type(parsed.schema->arguments[i].type), want[i]) << i;
    if (want[i]) specs.push_back(std::string(parsed.schema->arguments[i].name) + "=" + *want[i]);
  }
  // Without values for the str and Device arguments, the builder says which one is missing.
  std::vector<BuiltArgument> args;
  std::string error;
  EXPECT_FALSE(build_arguments(*parsed.schema, specs, args, error));
  EXPECT_NE(error.find("'j'"), std::string::npos) << error;
  specs.push_back("j='x'");
  specs.push_back("k=None");
  args.clear();
  ASSERT_TRUE(build_arguments(*parsed.schema, specs, args, error)) << error;
  ASSERT_EQ(args.size(), 12u);
  EXPECT_EQ(describe_value(args[0].value), "Tensor cpu:float32[2, 2]");
  EXPECT_TRUE(args[11].from_default);
}

}  // namespace
}  // namespace schemac::value_specs
