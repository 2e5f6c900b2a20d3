// How the checks of one schema (check.cpp, check_defaults.cpp) report what they find (private).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "schemac/schema/model.h"
#include "schemac/schema/parser.h"
#include "schemac/schema/schema_rules.h"

namespace schemac::schema {

using Problems = std::vector<SchemaError>;

// Adds a problem of `rule` with its severity (schema_rules.h): an error where PyTorch's parser
// rejects the schema, a warning where it takes it but it is questionable.
inline void add_problem(Problems& problems, TextRange range, std::string_view rule,
                        std::string message) {
  const SchemaRule* info = find_schema_rule(rule);
  const SchemaSeverity severity = info ? info->severity : SchemaSeverity::Error;
  uint32_t length = range.end > range.begin ? range.end - range.begin : 1;
  problems.push_back(
      SchemaError{std::move(message), range.begin, length, std::string(rule), severity});
}

// The checks of one argument's default value (check_defaults.cpp).
void check_default(const Argument& argument, Problems& problems);

}  // namespace schemac::schema
