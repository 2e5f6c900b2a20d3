// What lint and compat share: printing a rule catalogue, and printing diagnostics in the
// chosen --format (text to stderr with source lines and a summary; json and sarif to stdout).
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "schemac/diagnostics/diagnostic.h"

namespace schemac::cli {

// The help text of lint's and compat's --format.
inline constexpr const char* kReportFormatHelp =
    "text (to stderr, with source lines; the default), json or sarif (to stdout)";

// One line per rule: id, severity and what it checks, the ids in one column.
void print_rule_catalog(std::span<const schema::RuleInfo> rules);

// Prints `diagnostics` as `format` ("text", "json" or "sarif"); SARIF lists `rules`. Text says
// nothing when there is nothing to say.
void print_report(const std::vector<schema::Diagnostic>& diagnostics, const schema::SourceFiles& sources,
                  std::string_view format, std::span<const schema::RuleInfo> rules);

}  // namespace schemac::cli
