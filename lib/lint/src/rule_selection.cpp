#include "schemac/lint/rule_selection.h"

#include <algorithm>

namespace schemac::lint {

using diagnostics::Diagnostic, native_functions::NativeFunction;

namespace {

// Applies rule_applies to `d` for `subject`; false when the diagnostic is to be dropped.
bool select(Diagnostic& d, const LintOptions& options, Profile subject) {
  const diagnostics::RuleInfo* rule = find_lint_rule(d.rule);
  if (!rule) return true;
  std::optional<diagnostics::Severity> severity = rule_applies(*rule, options, subject);
  if (!severity) return false;
  d.severity = *severity;
  return true;
}

}  // namespace

std::optional<diagnostics::Severity> rule_applies(const diagnostics::RuleInfo& rule,
                                                  const LintOptions& options, Profile subject) {
  const Profile profile = options.profile == Profile::automatic ? subject : options.profile;
  const RuleProfiles profiles = rule_profiles(rule.id);
  if (profile == Profile::extension) {
    if (!profiles.extension) return std::nullopt;
    return profiles.extension_severity.value_or(rule.severity);
  }
  if (!profiles.in_tree) return std::nullopt;
  return rule.severity;
}

void select_rules(std::vector<Diagnostic>& diagnostics,
                  const native_functions::NativeFunctionsFile& file, const LintOptions& options) {
  const std::vector<NativeFunction>& entries = file.functions;
  std::erase_if(diagnostics, [&](Diagnostic& d) {
    // The entry a diagnostic is about is the last one starting at or before its line.
    auto after = std::upper_bound(
        entries.begin(), entries.end(), d.location.line,
        [](uint32_t line, const NativeFunction& f) { return line < f.location.line; });
    if (d.location.file != file.document.file || after == entries.begin()) return false;
    const NativeFunction& f = *std::prev(after);
    const std::string_view ns = f.schema ? f.schema->op.ns() : std::string_view();
    return !select(d, options, operator_profile(Profile::automatic, ns));
  });
}

void select_source_rules(std::vector<Diagnostic>& diagnostics, const LintOptions& options) {
  std::erase_if(diagnostics,
                [&](Diagnostic& d) { return !select(d, options, Profile::extension); });
}

}  // namespace schemac::lint
