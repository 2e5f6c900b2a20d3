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
// An error is what PyTorch's parser rejects; a warning is what it takes but is questionable.
enum class SchemaSeverity : uint8_t { Error, Warning };

struct SchemaError {
  std::string message;  // lower-case, no final period: "expected ')' after the arguments"
  uint32_t offset = 0;
  uint32_t length = 1;  // how many characters the caret underlines
  std::string rule;     // a stable id, e.g. schema-syntax, duplicate-argument, default-type
  SchemaSeverity severity = SchemaSeverity::Error;
};

struct ParseResult {
  std::optional<FunctionSchema> schema;  // set when there is no error
  std::optional<SchemaError> error;      // the first error: syntax, then semantic
  std::vector<SchemaError> warnings;     // what PyTorch takes but is questionable, in text order
  bool ok() const { return schema.has_value(); }
};

// Grammar and the semantic checks of one schema (check.h): an error when PyTorch's parser would
// reject the schema, warnings for what it takes but is questionable. Never throws, never aborts.
ParseResult parse_schema(std::string_view text);

// Grammar only: a schema that is well-formed but maybe semantically wrong.
ParseResult parse_schema_syntax(std::string_view text);

}  // namespace schemac::schema
