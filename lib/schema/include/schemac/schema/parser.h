// Parsing one schema string into the model.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "schemac/schema/model.h"

namespace schemac::schema {

// A problem found in one schema string. `offset` is a 0-based byte offset into the text;
// callers that show columns add 1 (and the offset of the string inside its file, for lint).
struct SchemaError {
  std::string message;   // lower-case, no final period: "expected ')' after the arguments"
  uint32_t offset = 0;
  uint32_t length = 1;   // how many characters the caret underlines
  std::string rule;      // a stable id, e.g. "schema-syntax", "duplicate-argument", "default-type"
};

struct ParseResult {
  std::optional<FunctionSchema> schema;  // set when there is no error
  std::optional<SchemaError> error;      // the first error: syntax, then semantic
  bool ok() const { return schema.has_value(); }
};

// Grammar and the semantic checks of one schema (check.h). Never throws, never aborts.
ParseResult parse_schema(std::string_view text);

// Grammar only: a schema that is well-formed but maybe semantically wrong.
ParseResult parse_schema_syntax(std::string_view text);

}  // namespace schemac::schema
