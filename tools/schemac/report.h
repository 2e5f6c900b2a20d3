// What lint and compat share: printing a rule catalogue, and printing diagnostics in the chosen
// --format, all on stdout: text (source lines, a summary, colour by --color), json, sarif and
// github (workflow annotations).
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "schemac/diagnostics/diagnostic.h"

namespace schemac::tool {

// The help text of lint's and compat's --format.
inline constexpr const char* kReportFormatHelp =
    "text (with source lines and a summary; the default), json, sarif or github (workflow "
    "annotations); all on stdout";

// Where each rule is documented: SARIF's helpUri is this + '#' + the rule id (docs/lint-rules.md
// has an anchor per rule). Relative to the project's root.
inline constexpr const char* kRulesDocUri = "docs/lint-rules.md";

// One line per rule: id, severity and what it checks, the ids in one column; or, with `format`
// "json", an array of {id, severity, description, helpUri}.
void print_rule_catalog(std::span<const diagnostics::RuleInfo> rules,
                        std::string_view format = "text");

// How the run went, for SARIF's invocation: the tool's own errors (unreadable inputs).
struct ReportRun {
  std::vector<std::string> tool_errors;
};

// Prints `diagnostics` as `format` ("text", "json", "sarif" or "github"); SARIF lists `rules`.
// Text says nothing when there is nothing to say; it ends with the summary.
void print_report(const std::vector<diagnostics::Diagnostic>& diagnostics,
                  const diagnostics::SourceFiles& sources, std::string_view format,
                  std::span<const diagnostics::RuleInfo> rules, const ReportRun& run = {});

}  // namespace schemac::tool
