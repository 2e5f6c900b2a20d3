#include "report.h"

#include <cstdio>

#include <fmt/format.h>

#include "cli.h"

namespace schemac::tool {

void print_rule_catalog(std::span<const diagnostics::RuleInfo> rules, std::string_view format,
                        std::string_view docs_url) {
  fmt::print("{}",
             report::render_rule_catalog(rules, format, report::rule_help_from_docs(docs_url)));
}

void print_report(const std::vector<diagnostics::Diagnostic>& diagnostics,
                  const diagnostics::SourceFiles& sources, std::string_view format,
                  std::span<const diagnostics::RuleInfo> rules, const report::Run& run) {
  fmt::print("{}",
             report::render_report(diagnostics, sources, format, rules, run,
                                   report::rule_help_from_docs(run.docs_url), cli::stdout_color()));
  std::fflush(stdout);
}

}  // namespace schemac::tool
