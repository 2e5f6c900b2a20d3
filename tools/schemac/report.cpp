#include "report.h"

#include <algorithm>
#include <cstdio>

#include <fmt/format.h>

#include "cli.h"
#include "schemac/support/version.h"

namespace schemac::cli {

void print_rule_catalog(std::span<const schema::RuleInfo> rules) {
  size_t width = 0;
  for (const schema::RuleInfo& rule : rules) width = std::max(width, rule.id.size());
  for (const schema::RuleInfo& rule : rules) {
    fmt::print("{:<{}}  {:<7}  {}\n", rule.id, width, schema::severity_name(rule.severity), rule.description);
  }
}

void print_report(const std::vector<schema::Diagnostic>& diagnostics, const schema::SourceFiles& sources,
                  std::string_view format, std::span<const schema::RuleInfo> rules) {
  if (format == "json") {
    fmt::print("{}", schema::render_json(diagnostics));
  } else if (format == "sarif") {
    schema::ToolInfo tool{"schemac", std::string(kVersion), "", rules};
    fmt::print("{}", schema::render_sarif(diagnostics, tool));
  } else if (!diagnostics.empty()) {
    fmt::print(stderr, "{}{}", schema::render_text(diagnostics, sources, {stderr_color()}),
               schema::render_summary(schema::count_diagnostics(diagnostics)));
  }
  std::fflush(stdout);
}

}  // namespace schemac::cli
