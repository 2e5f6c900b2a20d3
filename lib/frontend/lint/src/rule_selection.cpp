#include "schemac/lint/rule_selection.h"

#include <algorithm>

#include "schemac/rules/rules.h"

namespace schemac::lint {

using diagnostics::Diagnostic, native_functions::NativeFunction;

namespace {

rules::Circumstances circumstances(const LintOptions& options, Profile subject) {
  const Profile profile = options.profile == Profile::automatic ? subject : options.profile;
  rules::Circumstances c;
  c.profile = profile == Profile::extension ? rules::Profile::extension : rules::Profile::in_tree;
  return c;
}

// The configuration's severities for the file `d` is in.
const std::map<std::string, diagnostics::Severity, std::less<>>& configured_for(
    const Diagnostic& d, const LintOptions& options) {
  auto it = options.configured_by_file.find(d.location.file);
  return it == options.configured_by_file.end() ? options.configured_severity : it->second;
}

// Decides `d`'s severity for `subject`; false when the diagnostic is to be dropped. A note (what
// a finding comes with, not a finding) keeps its severity.
bool select(Diagnostic& d, const LintOptions& options, Profile subject, bool vendor_subset) {
  const rules::RuleDef* rule = rules::find_rule(d.rule);
  if (!rule || d.severity == diagnostics::Severity::note) return true;
  rules::Circumstances c = circumstances(options, subject);
  c.release = torch_releases::release_of(options.torch_version);
  c.vendor_subset = vendor_subset;
  const auto& configured = configured_for(d, options);
  if (auto it = configured.find(d.rule); it != configured.end()) c.configured = it->second;
  const rules::Verdict verdict = rules::decide(*rule, c);
  if (!verdict.severity) return false;
  d.severity = *verdict.severity;
  if (verdict.because == rules::Because::vendor_subset) {
    d.notes.push_back(diagnostics::Note{
        {},
        "most out= functions of this file have no functional variant: it declares a subset "
        "of PyTorch's operators, as out-of-tree backends do (adding their out= functions to "
        "torchgen's OUT_OPS_THAT_DONT_GET_GROUPED_PROPERLY), so this is a warning here"});
  }
  return true;
}

}  // namespace

std::optional<diagnostics::Severity> rule_applies(const diagnostics::RuleInfo& rule,
                                                  const LintOptions& options, Profile subject) {
  const rules::RuleDef* def = rules::find_rule(rule.id);
  if (!def) return rule.severity;
  return rules::decide(*def, circumstances(options, subject)).severity;
}

void select_rules(std::vector<Diagnostic>& diagnostics,
                  const native_functions::NativeFunctionsFile& file, const LintOptions& options,
                  bool vendor_subset) {
  const std::vector<NativeFunction>& entries = file.functions;
  std::erase_if(diagnostics, [&](Diagnostic& d) {
    // The entry a diagnostic is about is the last one starting at or before its line.
    auto after = std::upper_bound(
        entries.begin(), entries.end(), d.location.line,
        [](uint32_t line, const NativeFunction& f) { return line < f.location.line; });
    if (d.location.file != file.document.file) return false;
    // A finding about the file itself (its YAML, its shape) is about no operator.
    if (after == entries.begin()) return !select(d, options, Profile::in_tree, vendor_subset);
    const NativeFunction& f = *std::prev(after);
    const std::string_view ns = f.schema ? f.schema->op.ns() : std::string_view();
    return !select(d, options, operator_profile(Profile::automatic, ns), vendor_subset);
  });
}

void select_source_rules(std::vector<Diagnostic>& diagnostics, const LintOptions& options) {
  std::erase_if(diagnostics,
                [&](Diagnostic& d) { return !select(d, options, Profile::extension, false); });
}

}  // namespace schemac::lint
