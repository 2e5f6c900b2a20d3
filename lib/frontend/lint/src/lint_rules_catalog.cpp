// The catalogue of lint rules: id, severity, one-line description, sorted by id. A view of the
// rule registry (schemac/rules/rule_table.h): its yaml and schema families, which the registry
// keeps first and sorted by id.
#include <algorithm>
#include <vector>

#include "schemac/lint/lint_rules.h"
#include "schemac/rules/rules.h"

namespace schemac::lint {

using diagnostics::RuleInfo;

namespace {

const std::vector<RuleInfo>& all_rules() {
  static const std::vector<RuleInfo> rules = [] {
    std::vector<RuleInfo> out;
    for (const rules::RuleDef& rule : rules::all_rules()) {
      if (rule.family == rules::Family::yaml || rule.family == rules::Family::schema)
        out.push_back(RuleInfo{rule.id, rule.severity, rule.summary});
    }
    return out;
  }();
  return rules;
}

}  // namespace

std::span<const RuleInfo> lint_rule_catalog() { return all_rules(); }

const RuleInfo* find_lint_rule(std::string_view id) {
  return rules::find_by_id<RuleInfo>(all_rules(), id);
}

std::vector<RuleInfo> lint_run_rules(bool gen) {
  std::vector<RuleInfo> out;
  for (const rules::RuleDef& rule : rules::all_rules()) {
    switch (rule.family) {
      case rules::Family::gen:
        if (!gen) break;
        [[fallthrough]];
      case rules::Family::yaml:
      case rules::Family::schema:
      case rules::Family::source:
      case rules::Family::lint_meta:
        out.push_back(RuleInfo{rule.id, rule.severity, rule.summary});
        break;
      case rules::Family::compat:
      case rules::Family::parse:
      case rules::Family::audit: break;
    }
  }
  return out;
}

}  // namespace schemac::lint
