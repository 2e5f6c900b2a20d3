// The compat driver: load both files and the allow-list, compare, filter, sort.
#include "schemac/compat/compat.h"

#include <algorithm>

#include "schemac/rules/rules.h"

namespace schemac::compat {

using diagnostics::Diagnostic;

namespace {

// Moves the errors among `diagnostics` into `out`; returns whether there were any.
bool take_errors(std::vector<Diagnostic>& diagnostics, std::vector<Diagnostic>& out) {
  bool any = false;
  for (Diagnostic& d : diagnostics) {
    if (d.severity != diagnostics::Severity::error) continue;
    out.push_back(std::move(d));
    any = true;
  }
  return any;
}

// Registration code that defines no operator (yet, or any more) is a file without entries, not
// a bad file: its YAML's `empty-file` error is dropped.
void accept_no_operators(const CompatInput& input, std::vector<Diagnostic>& diagnostics) {
  if (!input.kernels_listed) return;
  std::erase_if(diagnostics, [](const Diagnostic& d) { return d.rule == rules::empty_file; });
}

}  // namespace

CompatReport check_compat(CompatInput old_input, CompatInput new_input,
                          std::optional<CompatInput> allow_list, Date today,
                          std::span<const std::string> unreadable_in_new) {
  CompatReport report;
  native_functions::NativeFunctionsLoad old_load =
      native_functions::load_native_functions(std::move(old_input.file), std::move(old_input.text));
  native_functions::NativeFunctionsLoad new_load =
      native_functions::load_native_functions(std::move(new_input.file), std::move(new_input.text));
  accept_no_operators(old_input, old_load.diagnostics);
  accept_no_operators(new_input, new_load.diagnostics);
  bool bad_old = take_errors(old_load.diagnostics, report.diagnostics);
  bool bad_new = take_errors(new_load.diagnostics, report.diagnostics);
  AllowListLoad allow;
  if (allow_list) {
    allow = load_allow_list(std::move(allow_list->file), std::move(allow_list->text));
    for (Diagnostic& d : allow.diagnostics) report.diagnostics.push_back(std::move(d));
  }
  if (!bad_old && !bad_new) {
    std::vector<CompatFinding> findings = compare_native_functions(
        old_load.file, new_load.file, {old_input.kernels_listed, new_input.kernels_listed});
    std::erase_if(findings, [&](const CompatFinding& f) {
      return std::find(unreadable_in_new.begin(), unreadable_in_new.end(), f.operator_name) !=
             unreadable_in_new.end();
    });
    AllowOutcome outcome = apply_allow_list(std::move(findings), allow.entries, today);
    for (Diagnostic& d : outcome.diagnostics) report.diagnostics.push_back(std::move(d));
    report.allowed = outcome.allowed;
    report.compared = true;
  }
  diagnostics::sort_diagnostics(report.diagnostics);
  return report;
}

}  // namespace schemac::compat
