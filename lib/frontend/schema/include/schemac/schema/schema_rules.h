// The schema parser's and checker's rules (parser.h, check.h): the rule registry's schema family
// (lib/common/rules) with the severity each is reported with (docs/schema-language.md).
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
