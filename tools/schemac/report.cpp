#include "report.h"

#include <cstdio>

#include <fmt/format.h>

#include "cli.h"
#include "schemac/config/config.h"
#include "schemac/rules/rule_help.h"

namespace schemac::tool {

std::optional<std::string> checked_docs_url(std::string_view command, const std::string& option) {
  if (option.empty() || config::is_url(option)) return option;
  cli::error(command, "--docs-url: '{}' is not a URL such as https://host/path/docs/", option);
  return std::nullopt;
}

report::RuleHelp rule_help_from_docs(std::string_view docs_url) {
  return {[](std::string_view id) {
            std::optional<rules::RuleHelp> help = rules::find_rule_help(id);
            return help ? help->text : std::string();
          },
          [docs_url = std::string(docs_url)](std::string_view id) {
            return rules::rule_help_uri(docs_url, id);
          }};
}

void print_rule_catalog(std::span<const diagnostics::RuleInfo> rules, std::string_view format,
                        std::string_view docs_url) {
  fmt::print("{}", report::render_rule_catalog(rules, format, rule_help_from_docs(docs_url)));
}

void print_report(const std::vector<diagnostics::Diagnostic>& diagnostics,
                  const diagnostics::SourceFiles& sources, std::string_view format,
                  std::span<const diagnostics::RuleInfo> rules, const ReportRun& run) {
  fmt::print("{}", report::render_report(diagnostics, sources, format, rules, run,
                                         rule_help_from_docs(run.docs_url), cli::stdout_color()));
  std::fflush(stdout);
}

}  // namespace schemac::tool
