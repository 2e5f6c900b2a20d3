// What lint and compat share: printing a rule catalogue, and printing diagnostics in the chosen
// --format, all on stdout: text (source lines, a summary, colour by --color), json, sarif and
// github (workflow annotations). lib/report renders them, with the rules' help from the embedded
// docs; this adds the terminal's colour.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "schemac/diagnostics/diagnostic.h"
#include "schemac/report/report.h"

namespace schemac::tool {

// One line per rule: id, severity and what it checks, the ids in one column; or, with `format`
// "json", an array of {id, severity, description, help, helpUri (with a docs URL)}.
void print_rule_catalog(std::span<const diagnostics::RuleInfo> rules,
                        std::string_view format = "text", std::string_view docs_url = "");

// Prints `diagnostics` as `format` ("text", "json", "sarif" or "github"); SARIF lists `rules`.
// Text says nothing when there is nothing to say; it ends with the summary. `run`: the tool's
// errors (unreadable inputs) and the docs URL.
void print_report(const std::vector<diagnostics::Diagnostic>& diagnostics,
                  const diagnostics::SourceFiles& sources, std::string_view format,
                  std::span<const diagnostics::RuleInfo> rules, const report::Run& run = {});

}  // namespace schemac::tool
