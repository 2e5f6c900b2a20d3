// The schema rules (schema_rules.h): the rule registry's schema family, sorted by id.
#include "schemac/schema/schema_rules.h"

#include <algorithm>
#include <vector>

#include "schemac/rules/rules.h"

namespace schemac::schema {
namespace {

const std::vector<SchemaRule>& table() {
  static const std::vector<SchemaRule> rules = [] {
    std::vector<SchemaRule> out;
    for (const rules::RuleDef& rule : rules::all_rules()) {
      if (rule.family != rules::Family::schema) continue;
      const SchemaSeverity severity =
          rule.severity == rules::Severity::error ? SchemaSeverity::Error : SchemaSeverity::Warning;
      out.push_back(SchemaRule{rule.id, severity, rule.summary});
    }
    return out;
  }();
  return rules;
}

}  // namespace

std::span<const SchemaRule> schema_rules() { return table(); }

const SchemaRule* find_schema_rule(std::string_view id) {
  return rules::find_by_id<SchemaRule>(table(), id);
}

}  // namespace schemac::schema
