// The rules of the schema parser and checker (parser.h, check.h): each id, the one severity it is
// reported with, and what it asks for. The checks take a problem's severity from this table, and
// lint's rule catalogue (`schemac lint --list-rules`, SARIF) takes these entries from it, so the
// two cannot disagree. An error is what PyTorch's parser rejects; a warning is what it takes but
// is questionable (docs/schema-language.md).
#pragma once

#include <span>
#include <string_view>

#include "schemac/schema/parser.h"

namespace schemac::schema {

struct SchemaRule {
  std::string_view id;
  SchemaSeverity severity;
  std::string_view description;
};

// Every schema rule, sorted by id.
std::span<const SchemaRule> schema_rules();
// The entry of `id`, or nullptr.
const SchemaRule* find_schema_rule(std::string_view id);

}  // namespace schemac::schema
