// How the command line shows findings and rules, in each --format: a lint or compat run's
// diagnostics (text with source lines and a summary, json, sarif, github), the rule catalogue
// (id, severity, what it checks) and lint's rules by profile (--list-rules). The renderers of one
// diagnostic list are lib/frontend/diagnostics'; this library chooses among them and adds what a
// report carries around them (the tool, its errors, each rule's help and link). Texts out, no
// printing.
#pragma once

#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "schemac/diagnostics/diagnostic.h"
#include "schemac/lint/rule_profiles.h"

namespace schemac::presentation {

// Each rule's help: its text (the documentation's row) and its link; "" where there is none.
// Unset: no help, no link.
struct RuleHelp {
  std::function<std::string(std::string_view id)> text;
  std::function<std::string(std::string_view id)> uri;
};

// Each rule's help, made from the rule table (lib/common/rules' rule_help.h), and its link
// under `docs_url` ("" for none: no link, never a path of the machine that built schemac).
RuleHelp rule_help(std::string_view docs_url);

// How the run went, for SARIF's invocation: the tool's own errors (unreadable inputs); and where
// the rules' documentation is published (--docs-url or `docs-url:`; "" for nowhere).
struct Run {
  std::vector<std::string> tool_errors;
  std::string docs_url;
};

// `diagnostics` as `format` ("text", "json", "sarif" or "github"); SARIF lists `rules` with
// their help. Text is empty when there is nothing to say, and ends with the summary.
std::string render_report(std::span<const diagnostics::Diagnostic> diagnostics,
                          const diagnostics::SourceFiles& sources, std::string_view format,
                          std::span<const diagnostics::RuleInfo> rules, const Run& run,
                          const RuleHelp& help, bool color);

// What a run checked, the lines `schemac lint` ends with on stderr (unless --quiet): a clean run's
// "checked 3 files, 41 schemas: no problems\n", then `code_read` (the registration code read per
// form, sources::tally_line) and a newline when it is not empty.
std::string render_checked(size_t files, size_t schemas, bool clean, std::string_view code_read);

// One line per rule: id, severity and what it checks, the ids in one column; or, with `format`
// "json", an array of {id, severity, description, help, helpUri}.
std::string render_rule_catalog(std::span<const diagnostics::RuleInfo> rules,
                                std::string_view format, const RuleHelp& help);

// lint's --list-rules: each rule's id, its severity in each profile it is in, and what it checks,
// as columns or (with `format` "json") an array of {id, profiles, description, help, helpUri};
// with `only` a profile, that profile's rules alone.
std::string render_rule_profiles(std::span<const diagnostics::RuleInfo> rules, lint::Profile only,
                                 std::string_view format, const RuleHelp& help);

// Keeps the first `max_errors` errors of `diagnostics` (and what comes before the last of them);
// returns how many errors were dropped.
size_t limit_errors(std::vector<diagnostics::Diagnostic>& diagnostics, size_t max_errors);

}  // namespace schemac::presentation
