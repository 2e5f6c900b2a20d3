// How the checks of one schema (check.cpp, check_defaults.cpp) report what they find. Private to
// lib/schema.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "schemac/schema/model.h"
#include "schemac/schema/parser.h"

namespace schemac::schema {

using Problems = std::vector<SchemaError>;

inline void add_problem(Problems& problems, SchemaSeverity severity, TextRange range,
                        std::string_view rule, std::string message) {
  uint32_t length = range.end > range.begin ? range.end - range.begin : 1;
  problems.push_back(
      SchemaError{std::move(message), range.begin, length, std::string(rule), severity});
}
// What PyTorch's parser rejects.
inline void add_error(Problems& problems, TextRange range, std::string_view rule,
                      std::string message) {
  add_problem(problems, SchemaSeverity::Error, range, rule, std::move(message));
}
// What PyTorch's parser takes but is questionable.
inline void add_warning(Problems& problems, TextRange range, std::string_view rule,
                        std::string message) {
  add_problem(problems, SchemaSeverity::Warning, range, rule, std::move(message));
}

// The checks of one argument's default value (check_defaults.cpp).
void check_default(const Argument& argument, Problems& problems);

}  // namespace schemac::schema
