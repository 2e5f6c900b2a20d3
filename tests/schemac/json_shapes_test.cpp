// Each command's JSON output against its documented shape, the JSON schemas of docs/schemas/:
// lint, compat and gen --format json (diagnostics.schema.json), parse --json and parse --source
// --json (JSON Lines: parse-result.schema.json, source-schema.schema.json), --list-rules
// (rules.schema.json), gen --list-outputs and lint --list-tags (paths.schema.json). The schemas
// are checked by a small validator of the JSON Schema keywords they use (type, const, enum,
// required, properties, additionalProperties, items, minimum, allOf, oneOf, $ref to $defs and to
// another file), which is itself shown to reject what it should.
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_test_support.h"

namespace schemac::test {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

const fs::path kSchemas = fs::path(SCHEMAC_SOURCE_DIR) / "docs" / "schemas";

json load_schema(const std::string& name) {
  return json::parse(read_file((kSchemas / name).string()));
}

bool has_type(const json& value, const std::string& type) {
  if (type == "object") return value.is_object();
  if (type == "array") return value.is_array();
  if (type == "string") return value.is_string();
  if (type == "integer") return value.is_number_integer();
  if (type == "number") return value.is_number();
  if (type == "boolean") return value.is_boolean();
  if (type == "null") return value.is_null();
  return false;
}

// Why `value` does not have the shape `schema` (of the file `root`) gives, or "".
std::string problem(const json& value, const json& schema, const json& root,
                    const std::string& at) {
  if (schema.contains("$ref")) {
    const std::string ref = schema["$ref"];
    if (ref.starts_with("#/$defs/")) return problem(value, root["$defs"][ref.substr(8)], root, at);
    const json other = load_schema(ref);
    return problem(value, other, other, at);
  }
  if (schema.contains("type")) {
    bool any = false;
    for (const json& type :
         schema["type"].is_array() ? schema["type"] : json::array({schema["type"]}))
      any = any || has_type(value, type);
    if (!any) return at + ": not of type " + schema["type"].dump();
  }
  if (schema.contains("const") && value != schema["const"])
    return at + ": not " + schema["const"].dump();
  if (schema.contains("enum") &&
      std::find(schema["enum"].begin(), schema["enum"].end(), value) == schema["enum"].end())
    return at + ": not one of " + schema["enum"].dump();
  if (schema.contains("minimum") && value.is_number() &&
      value.get<double>() < schema["minimum"].get<double>())
    return at + ": below the minimum";
  for (const json& part : schema.value("allOf", json::array()))
    if (std::string why = problem(value, part, root, at); !why.empty()) return why;
  if (schema.contains("oneOf")) {
    size_t matched = 0;
    std::string whys;
    for (const json& part : schema["oneOf"]) {
      std::string why = problem(value, part, root, at);
      matched += why.empty();
      whys += " [" + why + "]";
    }
    if (matched != 1) return at + ": matches " + std::to_string(matched) + " of oneOf" + whys;
  }
  if (value.is_object()) {
    for (const json& name : schema.value("required", json::array()))
      if (!value.contains(name.get<std::string>())) return at + ": no member " + name.dump();
    const json properties = schema.value("properties", json::object());
    for (const auto& [name, member] : value.items()) {
      if (properties.contains(name)) {
        if (std::string why = problem(member, properties[name], root, at + "." + name);
            !why.empty())
          return why;
      } else if (schema.value("additionalProperties", true) == false) {
        return at + ": unexpected member '" + name + "'";
      }
    }
  }
  if (value.is_array() && schema.contains("items")) {
    for (size_t i = 0; i < value.size(); ++i)
      if (std::string why =
              problem(value[i], schema["items"], root, at + "[" + std::to_string(i) + "]");
          !why.empty())
        return why;
  }
  return "";
}

std::string shape_problem(const json& value, const std::string& schema_file) {
  const json schema = load_schema(schema_file);
  return problem(value, schema, schema, "$");
}

// Each line of a JSON Lines text.
std::vector<json> json_lines(const std::string& text) {
  std::vector<json> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.push_back(json::parse(line));
  return out;
}

class JsonShapes : public ToolDirTest {
 protected:
  JsonShapes() : ToolDirTest("schemac_json_shapes_") {}
  ToolRun schemac(const std::string& arguments) {
    return shell(std::string("'") + SCHEMAC_EXE + "' " + arguments);
  }
};

TEST_F(JsonShapes, TheValidatorRejectsWhatItShould) {
  EXPECT_NE(shape_problem(json::array({json::object()}), "diagnostics.schema.json"), "");
  EXPECT_NE(shape_problem(json::object(), "diagnostics.schema.json"), "");
  EXPECT_NE(shape_problem(json{{"ok", true}}, "parse-result.schema.json"), "");
  EXPECT_NE(shape_problem(json::array({1}), "paths.schema.json"), "");
  EXPECT_EQ(shape_problem(json::array({"a/b"}), "paths.schema.json"), "");
}

TEST_F(JsonShapes, EveryCommandsJsonHasItsDocumentedShape) {
  file(".schemac.yaml", "severity: {default-order: warning}\n");
  file("ops.yaml",
       "- func: dd::a(Tensorr self) -> Tensor\n"
       "  dispach: x\n"
       "- func: dd::b(Tensor self, Tensor self) -> Tensor\n");
  file("good.yaml", "- func: dd::c(Tensor self) -> Tensor\n");
  file("bind.cpp",
       "TORCH_LIBRARY(dd, m) {\n"
       "  m.def(\"a(Tensorr self) -> Tensor\");\n"
       "  m.def(\"c(int x=1, int y) -> Tensor\");\n"
       "  m.def(\"d(Tensorr self) -> Tensor\");  // schemac: ignore[unknown-type]\n"
       "}\n");
  file("old.cpp",
       "TORCH_LIBRARY(dd, m) {\n  m.def(\"d(Tensor(a!) self, int n) -> Tensor(a!)\");\n}\n");
  struct Case {
    std::string arguments;
    std::string schema;
    bool lines;  // JSON Lines, else one document
  };
  const std::vector<Case> cases = {
      {"lint --format json ops.yaml bind.cpp", "diagnostics.schema.json", false},
      {"lint --format json good.yaml", "diagnostics.schema.json", false},
      {"compat --format json old.cpp bind.cpp", "diagnostics.schema.json", false},
      {"gen --format json ops.yaml -o out", "diagnostics.schema.json", false},
      {"gen --format json --list-outputs good.yaml -o out", "paths.schema.json", false},
      {"lint --list-tags --format json", "paths.schema.json", false},
      {"lint --list-rules --format json --docs-url https://h/docs", "rules.schema.json", false},
      {"compat --list-rules --format json", "rules.schema.json", false},
      {"parse --json 'f(Tensor x) -> Tensor' 'g(Tensorr x) -> Tensor'", "parse-result.schema.json",
       true},
      {"parse --source --json bind.cpp", "source-schema.schema.json", true},
  };
  for (const Case& c : cases) {
    ToolRun run = schemac(c.arguments);
    EXPECT_TRUE(run.status == 0 || run.status == 1) << c.arguments << ": " << run.err;
    std::vector<json> documents =
        c.lines ? json_lines(run.out) : std::vector<json>{json::parse(run.out)};
    ASSERT_FALSE(documents.empty()) << c.arguments;
    for (const json& document : documents)
      EXPECT_EQ(shape_problem(document, c.schema), "") << c.arguments << "\n" << document.dump(1);
  }
  // `ok` agrees with the settled severity: a default-order the config made a warning is not an
  // error, and a suppressed unknown-type is none.
  std::vector<json> found = json_lines(schemac("parse --source --json bind.cpp").out);
  ASSERT_EQ(found.size(), 3u);
  EXPECT_EQ(found[0]["ok"], false);
  EXPECT_EQ(found[1]["ok"], true);
  EXPECT_EQ(found[1]["warnings"][0]["rule"], "default-order");
  EXPECT_EQ(found[2]["ok"], true);
}

}  // namespace
}  // namespace schemac::test
