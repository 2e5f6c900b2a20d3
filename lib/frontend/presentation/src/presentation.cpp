// The command line's reports and rule lists (report.h).
#include "schemac/presentation/presentation.h"

#include <algorithm>
#include <array>
#include <optional>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "schemac/diagnostics/render_github.h"
#include "schemac/lint/lint_rules.h"
#include "schemac/lint/rule_selection.h"
#include "schemac/rules/rule_help.h"
#include "schemac/support/json.h"
#include "schemac/support/version.h"

namespace schemac::presentation {
namespace {

using diagnostics::Diagnostic, diagnostics::RuleInfo;

std::string help_text(const RuleHelp& help, std::string_view id) {
  return help.text ? help.text(id) : "";
}
std::string help_uri(const RuleHelp& help, std::string_view id) {
  return help.uri ? help.uri(id) : "";
}

// A rule list's help and link, where it has them.
template <typename JsonT>
void add_help(JsonT& entry, const RuleHelp& help, std::string_view id) {
  if (std::string text = help_text(help, id); !text.empty()) entry["help"] = text;
  if (std::string uri = help_uri(help, id); !uri.empty()) entry["helpUri"] = uri;
}

}  // namespace

std::string render_report(std::span<const Diagnostic> diagnostics,
                          const diagnostics::SourceFiles& sources, std::string_view format,
                          std::span<const RuleInfo> rules, const Run& run, const RuleHelp& help,
                          bool color) {
  if (format == "json") return diagnostics::render_json(diagnostics);
  if (format == "sarif") {
    diagnostics::ToolInfo tool{"schemac", std::string(support::kVersion), "", rules};
    diagnostics::SarifRun sarif{run.tool_errors.empty(), run.tool_errors, &sources, {}, {}};
    sarif.help_uri = [&](std::string_view id) { return help_uri(help, id); };
    sarif.help_text = [&](std::string_view id) { return help_text(help, id); };
    return diagnostics::render_sarif(diagnostics, tool, sarif);
  }
  if (format == "github") return diagnostics::render_github(diagnostics);
  if (diagnostics.empty()) return "";
  return diagnostics::render_text(diagnostics, sources, {color}) +
         diagnostics::render_summary(diagnostics::count_diagnostics(diagnostics));
}

std::string render_checked(size_t files, size_t schemas, bool clean, std::string_view code_read) {
  std::string out;
  if (clean && files > 0) {
    out = fmt::format("checked {} file{}, {} schema{}: no problems\n", files, files == 1 ? "" : "s",
                      schemas, schemas == 1 ? "" : "s");
  }
  if (!code_read.empty()) out += fmt::format("{}\n", code_read);
  return out;
}

std::string render_rule_catalog(std::span<const RuleInfo> rules, std::string_view format,
                                const RuleHelp& help) {
  if (format == "json") {
    support::Json out = support::Json::array();
    for (const RuleInfo& rule : rules) {
      support::Json entry{{"id", rule.id},
                          {"severity", diagnostics::severity_name(rule.severity)},
                          {"description", rule.description}};
      add_help(entry, help, rule.id);
      out.push_back(std::move(entry));
    }
    return out.dump(1, ' ', false, support::Json::error_handler_t::replace) + "\n";
  }
  size_t width = 0;
  for (const RuleInfo& rule : rules) width = std::max(width, rule.id.size());
  std::string out;
  for (const RuleInfo& rule : rules) {
    out += fmt::format("{:<{}}  {:<7}  {}\n", rule.id, width,
                       diagnostics::severity_name(rule.severity), rule.description);
  }
  return out;
}

std::string render_rule_profiles(std::span<const RuleInfo> rules, lint::Profile only,
                                 std::string_view format, const RuleHelp& help) {
  lint::LintOptions in_tree, extension;
  in_tree.profile = lint::Profile::in_tree;
  extension.profile = lint::Profile::extension;
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  std::vector<std::array<std::string, 3>> rows;  // id, profiles, description
  for (const RuleInfo& rule : rules) {
    nlohmann::ordered_json profiles = nlohmann::ordered_json::object();
    std::string column;
    for (const lint::LintOptions* options : {&in_tree, &extension}) {
      if (only != lint::Profile::automatic && only != options->profile) continue;
      std::optional<diagnostics::Severity> severity =
          lint::rule_applies(rule, *options, options->profile);
      if (!severity) continue;
      const std::string_view name = lint::profile_name(options->profile);
      profiles[std::string(name)] = diagnostics::severity_name(*severity);
      column += fmt::format("{}{}:{}", column.empty() ? "" : " ", name,
                            diagnostics::severity_name(*severity));
    }
    if (column.empty()) continue;
    list.push_back({{"id", rule.id}, {"profiles", profiles}, {"description", rule.description}});
    add_help(list.back(), help, rule.id);
    rows.push_back({std::string(rule.id), column, std::string(rule.description)});
  }
  if (format == "json") return list.dump(2) + "\n";
  size_t id_width = 0, profiles_width = 0;
  for (const auto& row : rows) {
    id_width = std::max(id_width, row[0].size());
    profiles_width = std::max(profiles_width, row[1].size());
  }
  std::string out;
  for (const auto& row : rows)
    out += fmt::format("{:<{}}  {:<{}}  {}\n", row[0], id_width, row[1], profiles_width, row[2]);
  return out;
}

RuleHelp rule_help(std::string_view docs_url) {
  return {[](std::string_view id) {
            const rules::RuleDef* rule = rules::find_rule(id);
            return rule ? rules::rule_help_text(*rule) : std::string();
          },
          [docs_url = std::string(docs_url)](std::string_view id) {
            return rules::rule_help_uri(docs_url, id);
          }};
}

size_t limit_errors(std::vector<Diagnostic>& diagnostics, size_t max_errors) {
  auto is_error = [](const Diagnostic& d) { return d.severity == diagnostics::Severity::error; };
  size_t errors = 0;
  for (size_t i = 0; i < diagnostics.size(); ++i) {
    if (!is_error(diagnostics[i]) || ++errors <= max_errors) continue;
    const auto dropped = std::count_if(diagnostics.begin() + static_cast<std::ptrdiff_t>(i),
                                       diagnostics.end(), is_error);
    diagnostics.resize(i);
    return static_cast<size_t>(dropped);
  }
  return 0;
}

}  // namespace schemac::presentation
