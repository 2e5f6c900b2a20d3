// The JSON objects of parse results (schema_json.h), built as support::Json values.
#include "schemac/schema_json/schema_json.h"

#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "schemac/schema/printer.h"
#include "schemac/sources/registration_lint.h"
#include "schemac/support/json.h"

namespace schemac::schema_json {
namespace {

using schema::Argument;
using schema::FunctionSchema;
using schema::ParseResult;
using schema::SchemaError;
using support::Json;

Json json_names(std::span<const std::string_view> names) {
  return Json(std::vector<std::string_view>(names.begin(), names.end()));
}

// The annotation of the whole argument as PyTorch models it (c10::AliasInfo): before, after and
// write, and for a list whose element is annotated, the element's under "contained".
Json json_alias(const schema::Type& type) {
  std::optional<schema::ArgumentAlias> alias = schema::argument_alias(type);
  if (!alias) return Json();
  Json out{{"before", json_names(alias->before)},
           {"after", json_names(alias->after)},
           {"write", alias->is_write}};
  if (alias->contained) {
    const schema::AliasInfo& inner = *alias->contained;
    out["contained"] = Json::array({Json{{"before", json_names(inner.before)},
                                         {"after", json_names(inner.after)},
                                         {"write", inner.is_write}}});
  }
  return out;
}

Json json_arguments(const std::vector<Argument>& arguments) {
  Json out = Json::array();
  for (const Argument& argument : arguments) {
    out.push_back(
        Json{{"name", argument.name},
             {"type", schema::print_type(argument.type)},
             {"default", argument.default_value ? Json(argument.default_value->text) : Json()},
             {"kwarg_only", argument.kwarg_only},
             {"alias", json_alias(argument.type)}});
  }
  return out;
}

Json json_warnings(const ParseResult& result) {
  Json out = Json::array();
  for (const SchemaError& warning : result.warnings) {
    out.push_back(
        Json{{"message", warning.message}, {"column", warning.offset + 1}, {"rule", warning.rule}});
  }
  return out;
}

Json result_object(const ParseResult& result) {
  if (!result.ok()) {
    const SchemaError& error = *result.error;
    return Json{{"ok", false},
                {"error", error.message},
                {"column", error.offset + 1},
                {"rule", error.rule},
                {"warnings", json_warnings(result)}};
  }
  const FunctionSchema& s = *result.schema;
  return Json{{"ok", true},
              {"canonical", schema::print_schema(s)},
              {"schema", Json{{"name", s.op.name},
                              {"overload", s.op.overload},
                              {"arguments", json_arguments(s.arguments)},
                              {"returns", json_arguments(s.returns)},
                              {"is_vararg", s.is_vararg},
                              {"is_varret", s.is_varret}}},
              {"warnings", json_warnings(result)}};
}

}  // namespace

std::string parse_result_json(const schema::ParseResult& result) {
  return support::to_json_text(result_object(result));
}

std::string found_schema_json(const std::string& path, const sources::FoundSchema& found,
                              const schema::ParseResult& result) {
  Json object = result_object(result);
  std::string ns = sources::resolved_namespace(found);
  object["file"] = path;
  object["line"] = found.position.line;
  object["column"] = found.position.column;
  object["namespace"] = ns.empty() ? Json(nullptr) : Json(ns);
  if (result.error) {
    diagnostics::Location at = sources::location_in(path, found.text, result.error->offset, 1);
    object["error_line"] = at.line;
    object["error_column"] = at.column;
  }
  // Warnings (when parse --json gives them) keep their column in the schema and gain their place
  // in the file.
  if (object.contains("warnings") && object["warnings"].is_array()) {
    for (Json& warning : object["warnings"]) {
      if (!warning.is_object() || !warning.contains("column") ||
          !warning["column"].is_number_unsigned()) {
        continue;
      }
      uint32_t column = warning["column"].get<uint32_t>();
      diagnostics::Location at =
          sources::location_in(path, found.text, column > 0 ? column - 1 : 0, 1);
      warning["source_line"] = at.line;
      warning["source_column"] = at.column;
    }
  }
  return support::to_json_text(object);
}

}  // namespace schemac::schema_json
