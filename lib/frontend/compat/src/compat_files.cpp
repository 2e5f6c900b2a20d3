// OLD and NEW as files of either kind (compat_files.h): registration code adopted as YAML, the
// YAML compared, the findings moved back and decided by each file's config; and what a front end
// asks besides (today's date, the rules a report may carry).
#include "schemac/compat/compat_files.h"

#include <ctime>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "schemac/adopt/registrations_yaml.h"
#include "schemac/rules/rules.h"

namespace schemac::compat {

std::optional<sources::Language> input_language(std::string_view forced, std::string_view path,
                                                std::string_view text) {
  if (forced == "cpp") return sources::Language::cpp;
  if (forced == "python") return sources::Language::python;
  if (forced == "yaml") return std::nullopt;
  return sources::language_of(path, text);
}

Date today_utc() {
  std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  return Date{utc.tm_year + 1900, utc.tm_mon + 1, utc.tm_mday};
}

std::string date_problem(std::string_view text) {
  if (parse_date(text)) return "";
  return "expected a date as YYYY-MM-DD, got '" + std::string(text) + "'";
}

const std::vector<diagnostics::RuleInfo>& report_rules() {
  static const std::vector<diagnostics::RuleInfo> rules = [] {
    std::vector<diagnostics::RuleInfo> out(compat_rule_catalog().begin(),
                                           compat_rule_catalog().end());
    for (const rules::RuleDef& rule : rules::all_rules()) {
      if (rule.family != rules::Family::compat)
        out.push_back(diagnostics::RuleInfo{rule.id, rule.severity, rule.summary});
    }
    return out;
  }();
  return rules;
}

std::optional<CompatReport> check_compat_files(CompatFile old_file, CompatFile new_file,
                                               std::optional<CompatInput> allow_list,
                                               const CompatFilesOptions& options,
                                               std::string& why) {
  // OLD, NEW and the allow-list as the engine's documents, each with the config of NEW's place
  // (or --config): OLD is NEW as it was, however it is read (`<(git show HEAD:bind.cpp)`).
  std::vector<engine::Document> documents;
  for (const CompatFile* file : {&old_file, &new_file}) {
    documents.emplace_back(file->path, file->text);
    documents.back().config_path = new_file.path;
  }
  if (allow_list) {
    documents.emplace_back(allow_list->file, allow_list->text);
    documents.back().config_path = new_file.path;
  }
  engine::Configured configured = engine::configure(std::move(documents), options.configs, {});
  if (configured.config_error) {
    CompatReport report;
    report.diagnostics = std::move(configured.problems);
    report.unusable_config = true;
    return report;
  }
  const config::Config& config = configured.configs.front();
  CompatFile* files[] = {&old_file, &new_file};
  std::vector<Diagnostic> not_compared;
  std::vector<adopt::YamlLineOrigin> origins[2];
  std::vector<std::string> unreadable;           // NEW's operators with an error of their own
  std::vector<sources::ScannedFile> scanned[2];  // origins point into them
  std::vector<std::string> texts;                // as written, for suppressions
  for (size_t i = 0; i < 2; ++i) {
    CompatFile& file = *files[i];
    texts.push_back(file.text);
    if (!file.language) continue;
    std::optional<sources::ScannedFile> scan = engine::scan_registration_code(
        file.path, file.text, *file.language, config, options.macros, why);
    if (!scan) return std::nullopt;
    scanned[i].push_back(std::move(*scan));
    sources::resolve_across_files(scanned[i]);
    std::vector<Diagnostic> left_out;
    file.text = adopt::registrations_yaml(scanned[i], left_out, &origins[i],
                                          i == 1 ? &unreadable : nullptr);
    for (Diagnostic& d : left_out) {
      // What keeps an OLD operator from being compared is said as such: OLD's problems are not
      // NEW's breaks.
      if (i == 0 && d.severity == diagnostics::Severity::error) {
        d.message = fmt::format("not compared: {} [{}]", d.message, d.rule);
        d.rule = rules::not_compared;
      }
      not_compared.push_back(std::move(d));
    }
  }
  if (allow_list) texts.push_back(allow_list->text);
  CompatInput old_input{old_file.path, old_file.text, old_file.language.has_value()};
  CompatInput new_input{new_file.path, new_file.text, new_file.language.has_value()};
  CompatReport report = check_compat(std::move(old_input), std::move(new_input),
                                     std::move(allow_list), options.today, unreadable);
  for (size_t i = 0; i < 2; ++i) {
    for (Diagnostic& d : report.diagnostics)
      adopt::place_in_source(d, files[i]->path, files[i]->text, origins[i]);
  }
  for (Diagnostic& d : not_compared) report.diagnostics.push_back(std::move(d));
  // Each finding suppressed by the comments where it is and decided by the config, as lint's.
  engine::Options settle_options;
  settle_options.macros = options.macros;
  settle_options.suppressions_judged = {rules::Family::compat};  // lint judges its own
  engine::Findings findings = engine::no_findings(configured, texts, settle_options);
  for (Diagnostic& d : report.diagnostics) engine::add_finding(findings, configured, std::move(d));
  report.diagnostics =
      engine::settle(configured, texts, std::move(findings), settle_options).diagnostics;
  diagnostics::sort_diagnostics(report.diagnostics);
  return report;
}

}  // namespace schemac::compat
