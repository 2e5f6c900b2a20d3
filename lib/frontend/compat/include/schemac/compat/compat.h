// Backward compatibility between two versions of a native-functions file: which changes break
// callers written against the old one (`schemac compat OLD NEW`). Operators are matched by name
// and overload; each breaking change is a diagnostic with a rule id, located in NEW (in OLD for
// removals) with a note pointing at the other file. An allow-list accepts known breaks, each with
// a reason and an optional expiry date. docs/compat.md lists the rules and why each breaks.
#pragma once

#include <compare>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "schemac/diagnostics/diagnostic.h"
#include "schemac/native_functions/native_functions.h"

namespace schemac::compat {

using diagnostics::Diagnostic;

// One breaking change. `operator_name` is the operator as OLD names it ("add.Tensor"); the
// allow-list matches on it.
struct CompatFinding {
  std::string operator_name;
  Diagnostic diagnostic;
};

// Which of the two files were written from registration code (lib/frontend/adopt): their dispatch
// sections list every kernel the code registers, so an entry without one has no kernel (in a
// native-functions file it means a CompositeImplicitAutograd kernel, which covers every backend).
struct KernelsListed {
  bool old_file = false;
  bool new_file = false;
};

// Every breaking change from `old_file` to `new_file`, in OLD's operator order. Entries whose
// func did not parse are skipped (the loader reports them).
std::vector<CompatFinding> compare_native_functions(
    const native_functions::NativeFunctionsFile& old_file,
    const native_functions::NativeFunctionsFile& new_file, KernelsListed listed = {});

// Every rule compat can report (the allow-list's own rules included), sorted by id.
std::span<const diagnostics::RuleInfo> compat_rule_catalog();
const diagnostics::RuleInfo* find_compat_rule(std::string_view id);

// A calendar date, for allow-list expiry.
struct Date {
  int year = 0;
  int month = 0;
  int day = 0;
  friend auto operator<=>(const Date&, const Date&) = default;
  std::string text() const;  // "2026-01-31"
};
// Strict YYYY-MM-DD with a real day of that month; nullopt otherwise.
std::optional<Date> parse_date(std::string_view text);

// One allow-list entry: accept the findings of `operator_name` (all of them, or those of `rule`).
struct AllowEntry {
  std::string operator_name;
  std::optional<std::string> rule;
  std::string reason;
  std::optional<Date> expires;             // the entry applies up to and including this day
  diagnostics::Location location;          // the entry
  diagnostics::Location expires_location;  // its `expires:` value, when there is one
};

// The allow-list file: a YAML list of {operator, rule?, reason, expires?} mappings. Entries with
// errors (a missing reason, a bad date, an unknown rule or field) are reported and left out.
struct AllowListLoad {
  std::vector<AllowEntry> entries;
  std::vector<Diagnostic> diagnostics;
};
AllowListLoad load_allow_list(std::string file, std::string text);

// The findings that remain after the allow-list, as diagnostics, followed by an error for each
// expired entry (whose findings are not accepted any more) and a warning for each entry that
// matched nothing.
struct AllowOutcome {
  std::vector<Diagnostic> diagnostics;
  size_t allowed = 0;  // findings accepted by an entry
};
AllowOutcome apply_allow_list(std::vector<CompatFinding> findings,
                              std::span<const AllowEntry> entries, Date today);

// A whole check: both files loaded (a file with load errors is reported with lint's located
// errors and the comparison is skipped), compared, and filtered through the allow-list. The
// diagnostics come sorted by place. Never throws for any input.
struct CompatInput {
  std::string file;
  std::string text;
  // Written from registration code (KernelsListed); without entries it defines no operator,
  // which is no error.
  bool kernels_listed = false;
};
struct CompatReport {
  std::vector<Diagnostic> diagnostics;
  size_t allowed = 0;
  bool compared = false;         // false when a file had load errors
  bool unusable_config = false;  // the .schemac.yaml that applies could not be used
};
// `unreadable_in_new`: operators ("ns::op.overload") NEW defines in a form that could not be read
// (its own error is reported instead): no finding is made about them.
CompatReport check_compat(CompatInput old_input, CompatInput new_input,
                          std::optional<CompatInput> allow_list, Date today,
                          std::span<const std::string> unreadable_in_new = {});

}  // namespace schemac::compat
