#include "report.h"

#include <algorithm>
#include <cstdio>

#include <fmt/format.h>

#include "cli.h"
#include "rule_help.h"
#include "schemac/config/config.h"
#include "schemac/diagnostics/render_github.h"
#include "schemac/support/json.h"
#include "schemac/support/version.h"

namespace schemac::tool {

using support::Json;

std::optional<std::string> checked_docs_url(std::string_view command, const std::string& option) {
  if (option.empty() || config::is_url(option)) return option;
  cli::error(command, "--docs-url: '{}' is not a URL such as https://host/path/docs/", option);
  return std::nullopt;
}

void print_rule_catalog(std::span<const diagnostics::RuleInfo> rules, std::string_view format,
                        std::string_view docs_url) {
  if (format == "json") {
    Json out = Json::array();
    for (const diagnostics::RuleInfo& rule : rules) {
      Json entry{{"id", rule.id},
                 {"severity", diagnostics::severity_name(rule.severity)},
                 {"description", rule.description}};
      if (std::optional<RuleHelp> help = find_rule_help(rule.id)) entry["help"] = help->text;
      if (!docs_url.empty()) entry["helpUri"] = rule_help_uri(docs_url, rule.id);
      out.push_back(std::move(entry));
    }
    fmt::print("{}\n", out.dump(1, ' ', false, Json::error_handler_t::replace));
    return;
  }
  size_t width = 0;
  for (const diagnostics::RuleInfo& rule : rules) width = std::max(width, rule.id.size());
  for (const diagnostics::RuleInfo& rule : rules) {
    fmt::print("{:<{}}  {:<7}  {}\n", rule.id, width, diagnostics::severity_name(rule.severity),
               rule.description);
  }
}

void print_report(const std::vector<diagnostics::Diagnostic>& diagnostics,
                  const diagnostics::SourceFiles& sources, std::string_view format,
                  std::span<const diagnostics::RuleInfo> rules, const ReportRun& run) {
  if (format == "json") {
    fmt::print("{}", diagnostics::render_json(diagnostics));
  } else if (format == "sarif") {
    diagnostics::ToolInfo tool{"schemac", std::string(support::kVersion), "", rules};
    diagnostics::SarifRun sarif{run.tool_errors.empty(), run.tool_errors, &sources, {}, {}};
    sarif.help_uri = [&](std::string_view id) { return rule_help_uri(run.docs_url, id); };
    sarif.help_text = [](std::string_view id) {
      std::optional<RuleHelp> help = find_rule_help(id);
      return help ? help->text : std::string();
    };
    fmt::print("{}", diagnostics::render_sarif(diagnostics, tool, sarif));
  } else if (format == "github") {
    fmt::print("{}", diagnostics::render_github(diagnostics));
  } else if (!diagnostics.empty()) {
    fmt::print("{}{}", diagnostics::render_text(diagnostics, sources, {cli::stdout_color()}),
               diagnostics::render_summary(diagnostics::count_diagnostics(diagnostics)));
  }
  std::fflush(stdout);
}

}  // namespace schemac::tool
