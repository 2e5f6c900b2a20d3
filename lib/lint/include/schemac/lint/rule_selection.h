// Which rules apply where: a rule's severity for one operator (or one registration), from the
// lint options and the rule's per-profile data (rule_profiles.h).
#pragma once

#include <optional>
#include <vector>

#include "schemac/lint/lint_rules.h"

namespace schemac::lint {

// The severity `rule` has for a subject whose profile, when none is forced with
// options.profile, is `subject` (operator_profile(Profile::automatic, ns) for a YAML operator,
// `extension` for registration code); nullopt when the rule does not apply to it.
std::optional<diagnostics::Severity> rule_applies(const diagnostics::RuleInfo& rule,
                                                  const LintOptions& options, Profile subject);

// Drops the diagnostics of `file` whose rule does not apply to the operator they are about (the
// entry they sit in) and gives the others the severity they have there. Diagnostics outside any
// entry and of rules not in the catalogue are kept as they are.
void select_rules(std::vector<diagnostics::Diagnostic>& diagnostics,
                  const native_functions::NativeFunctionsFile& file, const LintOptions& options);

// The same for diagnostics about registration code, whose operators get `extension` unless a
// profile is forced.
void select_source_rules(std::vector<diagnostics::Diagnostic>& diagnostics,
                         const LintOptions& options);

}  // namespace schemac::lint
