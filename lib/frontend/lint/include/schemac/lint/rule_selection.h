// Which rules apply where: a rule's severity for one operator (or one registration), from the
// lint options, the file and the rule's registry entry. Every step is rules::decide (profile,
// release, vendor subset, configuration), called once per finding here.
#pragma once

#include <optional>
#include <vector>

#include "schemac/lint/lint_rules.h"

namespace schemac::lint {

// The severity `rule` has for a subject whose profile, when none is forced with
// options.profile, is `subject` (operator_profile(Profile::automatic, ns) for a YAML operator,
// `extension` for registration code), in every release; nullopt when the rule does not apply to
// it. For --list-rules.
std::optional<diagnostics::Severity> rule_applies(const diagnostics::RuleInfo& rule,
                                                  const LintOptions& options, Profile subject);

// Drops the diagnostics of `file` whose rule does not apply to the operator they are about (the
// entry they sit in; before any entry, the file itself, in-tree unless a profile is forced) or to
// options.torch_version, and gives the others the severity they have there, the configuration's
// last (rules::decide); in a vendor's subset file (`vendor_subset`) the group rules are
// warnings, with a note that says why. Notes and diagnostics of other files are kept as they
// are.
void select_rules(std::vector<diagnostics::Diagnostic>& diagnostics,
                  const native_functions::NativeFunctionsFile& file, const LintOptions& options,
                  bool vendor_subset = false);

// The same for diagnostics about registration code, whose operators get `extension` unless a
// profile is forced.
void select_source_rules(std::vector<diagnostics::Diagnostic>& diagnostics,
                         const LintOptions& options);

}  // namespace schemac::lint
