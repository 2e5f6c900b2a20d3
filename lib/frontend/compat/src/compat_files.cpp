// OLD and NEW as files of either kind (compat_files.h): registration code adopted as YAML, the
// YAML compared, the findings moved back and decided by each file's config; and what a front end
// asks besides (today's date, the rules a report may carry).
#include "schemac/compat/compat_files.h"

#include <ctime>
#include <utility>
#include <vector>

#include "schemac/adopt/registrations_yaml.h"
#include "schemac/lint/lint_rules.h"

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
    out.insert(out.end(), lint::lint_rule_catalog().begin(), lint::lint_rule_catalog().end());
    return out;
  }();
  return rules;
}

std::optional<CompatReport> check_compat_files(CompatFile old_file, CompatFile new_file,
                                               std::optional<CompatInput> allow_list,
                                               const CompatFilesOptions& options,
                                               std::string& why) {
  CompatFile* files[] = {&old_file, &new_file};
  std::vector<Diagnostic> not_compared;
  std::vector<adopt::YamlLineOrigin> origins[2];
  std::vector<std::string> unreadable;           // NEW's operators with an error of their own
  std::vector<sources::ScannedFile> scanned[2];  // origins point into them
  for (size_t i = 0; i < 2; ++i) {
    CompatFile& file = *files[i];
    if (!file.language) continue;
    std::optional<sources::ScannedFile> scan =
        engine::scan_registration_code(file.path, file.text, *file.language, options.macros, why);
    if (!scan) return std::nullopt;
    scanned[i].push_back(std::move(*scan));
    sources::resolve_across_files(scanned[i]);
    std::vector<Diagnostic> left_out;
    file.text = adopt::registrations_yaml(scanned[i], left_out, &origins[i],
                                          i == 1 ? &unreadable : nullptr);
    for (Diagnostic& d : left_out) {
      // Only what keeps an OLD operator from being compared is said of OLD, as a warning.
      if (i == 0 && d.severity == diagnostics::Severity::error) {
        d.severity = diagnostics::Severity::warning;
      }
      not_compared.push_back(std::move(d));
    }
  }
  CompatReport report = check_compat({old_file.path, old_file.text}, {new_file.path, new_file.text},
                                     std::move(allow_list), options.today, unreadable);
  for (size_t i = 0; i < 2; ++i) {
    for (Diagnostic& d : report.diagnostics)
      adopt::place_in_source(d, files[i]->path, files[i]->text, origins[i]);
  }
  for (Diagnostic& d : not_compared) report.diagnostics.push_back(std::move(d));
  if (options.configs) engine::apply_configs(report.diagnostics, *options.configs);
  diagnostics::sort_diagnostics(report.diagnostics);
  return report;
}

}  // namespace schemac::compat
