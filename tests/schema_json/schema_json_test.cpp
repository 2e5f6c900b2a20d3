// parse_result_json and found_schema_json (schema_json.h) on small schemas.
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "schemac/schema_json/schema_json.h"
#include "schemac/sources/scan.h"

namespace schemac::schema_json {
namespace {

TEST(SchemaJson, AParsedSchemaIsItsCanonicalTextArgumentsAndAliases) {
  const std::string text = parse_result_json(
      schema::parse_schema("add_(Tensor(a!) self, Tensor[] others, *, int n=1) -> Tensor(a!)"));
  EXPECT_EQ(text.find('\n'), std::string::npos) << "one object per line";
  nlohmann::json object = nlohmann::json::parse(text);
  EXPECT_EQ(object["ok"], true);
  EXPECT_EQ(object["canonical"],
            "add_(Tensor(a!) self, Tensor[] others, *, int n=1) -> Tensor(a!)");
  EXPECT_EQ(object["schema"]["name"], "add_");
  const nlohmann::json& self = object["schema"]["arguments"][0];
  EXPECT_EQ(self["alias"]["before"], nlohmann::json::array({"a"}));
  EXPECT_EQ(self["alias"]["write"], true);
  EXPECT_TRUE(object["schema"]["arguments"][1]["alias"].is_null());
  EXPECT_EQ(object["schema"]["arguments"][2]["default"], "1");
  EXPECT_EQ(object["schema"]["arguments"][2]["kwarg_only"], true);
  // Members in the documented order.
  EXPECT_EQ(text.rfind("{\"ok\":true,\"canonical\":", 0), 0u) << text;
}

TEST(SchemaJson, AnErrorNamesItsColumnAndRule) {
  nlohmann::json object =
      nlohmann::json::parse(parse_result_json(schema::parse_schema("f(Tensor x -> Tensor")));
  EXPECT_EQ(object["ok"], false);
  EXPECT_EQ(object["column"], 12);
  EXPECT_EQ(object["rule"], "schema-syntax");
}

TEST(SchemaJson, AFoundSchemaAddsWhereItIsInTheFile) {
  sources::ScanResult scan = sources::scan_source(
      "TORCH_LIBRARY(myops, m) {\n  m.def(\"f(Tensor x -> Tensor\");\n}\n", sources::Language::cpp);
  ASSERT_EQ(scan.schemas.size(), 1u);
  const sources::FoundSchema& found = scan.schemas[0];
  nlohmann::json object = nlohmann::json::parse(
      found_schema_json("ops.cpp", found, schema::parse_schema(found.text.text())));
  EXPECT_EQ(object["file"], "ops.cpp");
  EXPECT_EQ(object["line"], 2);
  EXPECT_EQ(object["column"], 9);
  EXPECT_EQ(object["namespace"], "myops");
  EXPECT_EQ(object["error_line"], 2);
  EXPECT_EQ(object["error_column"], 21);
}

}  // namespace
}  // namespace schemac::schema_json
