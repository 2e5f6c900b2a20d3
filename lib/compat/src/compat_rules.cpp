// The catalogue of compat rules: id, severity, one-line description, sorted by id. The
// signature and dispatch rules are breaking changes; the allow-* rules are about the allow-list.
#include <algorithm>
#include <array>

#include "schemac/compat/compat.h"

namespace schemac::compat {

using diagnostics::RuleInfo;

namespace {

constexpr auto E = diagnostics::Severity::error;
constexpr auto W = diagnostics::Severity::warning;

constexpr auto kRules = std::to_array<RuleInfo>({
    {"added-argument", E,
     "a new argument has a default and comes after every argument old calls pass by position"},
    {"allow-expired", E,
     "an allow-list entry is past its expiry date (its findings are reported again)"},
    {"allow-invalid-date", E, "an allow-list expiry date is a real YYYY-MM-DD date"},
    {"allow-invalid-entry", E, "the allow-list is a list of mappings whose fields are strings"},
    {"allow-missing-operator", E, "every allow-list entry names an operator"},
    {"allow-missing-reason", E, "every allow-list entry gives a reason"},
    {"allow-unknown-field", E, "allow-list entries use only operator, rule, reason and expires"},
    {"allow-unknown-rule", E, "an allow-list rule is a compat rule id"},
    {"allow-unused", W, "an allow-list entry matches a finding"},
    {"changed-alias", E,
     "arguments and returns keep their alias annotations (what is written to, what aliases what)"},
    {"changed-default", E, "an argument keeps its default value"},
    {"changed-return-count", E, "an operator returns as many values as before"},
    {"changed-varargs", E, "an operator keeps or lacks its variable arguments ('...') as before"},
    {"kwarg-only-argument", E, "a positional argument does not become keyword-only"},
    {"removed-argument", E, "an argument is not removed"},
    {"removed-backend", E, "an operator keeps a kernel for every backend it had one for"},
    {"removed-default", E, "an argument keeps its default"},
    {"removed-operator", E, "an operator is not removed"},
    {"removed-overload", E, "an overload is not removed"},
    {"renamed-argument", E, "an argument keeps its name (Python keyword arguments use it)"},
    {"renamed-overload", E,
     "an overload keeps its name (backends register to it, models serialize it)"},
    {"renamed-return", E, "a named return keeps its name (Python reads it as a field)"},
    {"reordered-argument", E, "arguments keep their order"},
    {"retyped-argument", E,
     "an argument type only widens (T to T?, int to SymInt, int[2] to int[])"},
    {"retyped-return", E, "a return type only narrows (T? to T, SymInt to int)"},
});

}  // namespace

std::span<const RuleInfo> compat_rule_catalog() { return kRules; }

const RuleInfo* find_compat_rule(std::string_view id) {
  auto it =
      std::lower_bound(kRules.begin(), kRules.end(), id,
                       [](const RuleInfo& rule, std::string_view key) { return rule.id < key; });
  return it != kRules.end() && it->id == id ? &*it : nullptr;
}

}  // namespace schemac::compat
