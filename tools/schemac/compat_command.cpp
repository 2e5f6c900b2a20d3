// `schemac compat OLD NEW [--allow FILE] [--format text|json|sarif|github] [--today YYYY-MM-DD]
// [--list-rules]`: reports the changes from OLD to NEW that break callers written against OLD.
// Every format goes to stdout, as lint's (text coloured by --color), text ending with
// "N errors, M warnings". Exit 0 compatible, 1 when anything
// breaking is found (or an input file or the allow-list has errors, or an allow-list entry
// expired), 2 on usage or I/O errors.
#include <ctime>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli.h"
#include "commands.h"
#include "input.h"
#include "report.h"
#include "schemac/compat/compat.h"
#include "schemac/lint/lint_rules.h"

namespace schemac::cli {
namespace {

constexpr std::string_view kCommand = "schemac compat";

struct CompatOptions {
  std::string old_file;
  std::string new_file;
  std::string allow_file;  // empty: no allow-list
  std::string format = "text";
  std::string today;       // empty: the current UTC date
  bool list_rules = false;
};

schema::Date current_utc_date() {
  std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  return schema::Date{utc.tm_year + 1900, utc.tm_mon + 1, utc.tm_mday};
}

// compat's rules, then lint's (the errors of a bad input file), for SARIF's rule table.
const std::vector<schema::RuleInfo>& all_rules() {
  static const std::vector<schema::RuleInfo> rules = [] {
    std::vector<schema::RuleInfo> out(schema::compat_rule_catalog().begin(), schema::compat_rule_catalog().end());
    out.insert(out.end(), schema::lint_rule_catalog().begin(), schema::lint_rule_catalog().end());
    return out;
  }();
  return rules;
}

int run_compat(const CompatOptions& options) {
  if (options.list_rules) {
    print_rule_catalog(schema::compat_rule_catalog(), options.format);
    return kExitOk;
  }
  if (options.old_file.empty() || options.new_file.empty()) {
    error(kCommand, "expected two files, OLD and NEW (see 'schemac compat --help')");
    return kExitUsage;
  }
  std::vector<std::string> paths = {options.old_file, options.new_file};
  if (!options.allow_file.empty()) paths.push_back(options.allow_file);
  std::vector<std::string> texts;
  for (const std::string& path : paths) {
    std::optional<std::string> text = read_input(kCommand, path);
    if (!text) return kExitUsage;
    texts.push_back(std::move(*text));
  }
  schema::SourceFiles sources;
  for (size_t i = 0; i < paths.size(); ++i) sources.add(paths[i], texts[i]);

  std::optional<schema::CompatInput> allow;
  if (!options.allow_file.empty()) allow = schema::CompatInput{paths[2], texts[2]};
  schema::Date today = options.today.empty() ? current_utc_date() : *schema::parse_date(options.today);
  schema::CompatReport report = schema::check_compat({paths[0], texts[0]}, {paths[1], texts[1]},
                                                     std::move(allow), today);

  schema::DiagnosticCounts counts = schema::count_diagnostics(report.diagnostics);
  print_report(report.diagnostics, sources, options.format, all_rules());
  if (options.format == "text" && report.allowed > 0) {
    fmt::print("{} breaking change{} accepted by the allow-list '{}'\n", report.allowed,
               report.allowed == 1 ? "" : "s", options.allow_file);
  }
  return counts.errors > 0 ? kExitProblems : kExitOk;
}

}  // namespace

std::function<int()> bind_compat_command(CLI::App* cmd) {
  auto options = std::make_shared<CompatOptions>();
  cmd->add_option("old", options->old_file, "the file as it was (the baseline)");
  cmd->add_option("new", options->new_file, "the file as it is now");
  cmd->add_option("--allow", options->allow_file,
                  "a YAML allow-list of accepted breaks: '- {operator: NAME, rule: ID, reason: TEXT, "
                  "expires: YYYY-MM-DD}' (rule and expires optional)");
  add_format_option(cmd, options->format, {"text", "json", "sarif", "github"}, kReportFormatHelp);
  cmd->add_option("--today", options->today,
                  "the date allow-list expiry is checked against (default: today's UTC date)")
      ->check(CLI::Validator(
          [](std::string& value) {
            return schema::parse_date(value) ? std::string() : "expected a date as YYYY-MM-DD, got '" + value + "'";
          },
          "YYYY-MM-DD"));
  cmd->add_flag("--list-rules", options->list_rules, "print every rule id, its severity and what it checks");
  return [options] { return run_compat(*options); };
}

}  // namespace schemac::cli
