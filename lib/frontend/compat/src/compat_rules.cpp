// The catalogue of compat rules: id, severity, one-line description, sorted by id. A view of the
// rule registry's compat family (schemac/rules/rule_table.h). The signature and dispatch rules are
// breaking changes; the allow-* rules are about the allow-list.
#include <algorithm>
#include <vector>

#include "schemac/compat/compat.h"
#include "schemac/rules/rules.h"

namespace schemac::compat {

using diagnostics::RuleInfo;

namespace {

const std::vector<RuleInfo>& table() {
  static const std::vector<RuleInfo> out = [] {
    std::vector<RuleInfo> rules;
    for (const rules::RuleDef& rule : rules::family_rules(rules::Family::compat))
      rules.push_back(RuleInfo{rule.id, rule.severity, rule.summary});
    std::sort(rules.begin(), rules.end(),
              [](const RuleInfo& a, const RuleInfo& b) { return a.id < b.id; });
    return rules;
  }();
  return out;
}

}  // namespace

std::span<const RuleInfo> compat_rule_catalog() { return table(); }

const RuleInfo* find_compat_rule(std::string_view id) {
  return rules::find_by_id<RuleInfo>(table(), id);
}

}  // namespace schemac::compat
