// `schemac compat OLD NEW [--allow FILE]`: the changes from OLD to NEW that break callers written
// against OLD. OLD and NEW are native-functions YAML or C++ / Python registration code, mixed as
// needed (lib/frontend/compat's compat_files.h compares registration code through its YAML form).
// Every format goes to stdout, as lint's. Exit 0 compatible, 1 when anything breaking is found (or
// an input or the allow-list has errors, or an allow-list entry expired), 2 usage or I/O errors.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "cli.h"
#include "commands.h"
#include "input.h"
#include "schemac/compat/compat.h"
#include "schemac/compat/compat_files.h"
#include "schemac/engine/documents.h"
#include "schemac/engine/engine.h"
#include "schemac/presentation/presentation.h"
#include "schemac/sources/language.h"
#include "shared_options.h"

namespace schemac::tool {

using cli::error;

namespace {

constexpr std::string_view kCommand = "schemac compat";

struct CompatOptions {
  std::string old_file;
  std::string new_file;
  std::string allow_file;  // empty: no allow-list
  std::string format = "text";
  std::string today;  // empty: the current UTC date
  bool list_rules = false;
  std::string docs_url;     // --docs-url: SARIF's helpUri base
  std::string language;     // cpp | python | yaml: overrides what the names and contents say
  std::string config_file;  // --config; empty: the nearest .schemac.yaml above NEW
  BuildMacroOptions macros;
};

int run_compat(const CompatOptions& options) {
  if (options.list_rules) {
    fmt::print("{}",
               presentation::render_rule_catalog(compat::compat_rule_catalog(), options.format,
                                                 presentation::rule_help(options.docs_url)));
    return cli::kExitOk;
  }
  if (options.old_file.empty() || options.new_file.empty()) {
    error(kCommand, "expected two files, OLD and NEW (see 'schemac compat --help')");
    return cli::kExitUsage;
  }
  if (!build_macros(kCommand, options.macros)) return cli::kExitUsage;
  compat::CompatFile files[2] = {{options.old_file, "", {}}, {options.new_file, "", {}}};
  diagnostics::SourceFiles sources;
  for (compat::CompatFile& file : files) {
    // Registration code is read whatever its bytes, as lint and parse --source read it; YAML
    // must be text.
    std::error_code ec;
    bool code = std::filesystem::exists(file.path, ec) && !sources::is_yaml_path(file.path);
    std::optional<std::string> text = cli::read_input(kCommand, file.path, "", code);
    if (!text) return cli::kExitUsage;
    file.language = compat::input_language(options.language, file.path, *text);
    if (std::string why = file.language ? "" : cli::why_not_text(*text); !why.empty()) {
      error(kCommand, "cannot read '{}': {}", file.path, why);
      return cli::kExitUsage;
    }
    sources.add(file.path, *text);
    file.text = std::move(*text);
  }
  std::optional<compat::CompatInput> allow;
  if (!options.allow_file.empty()) {
    std::optional<std::string> text = cli::read_input(kCommand, options.allow_file);
    if (!text) return cli::kExitUsage;
    sources.add(options.allow_file, *text);
    allow = compat::CompatInput{options.allow_file, std::move(*text)};
  }
  // NEW's .schemac.yaml (or --config) decides every finding, OLD's too.
  config::ConfigProvider configs = engine::config_provider(options.config_file);
  compat::CompatFilesOptions compare{
      options.today.empty() ? compat::today_utc() : *compat::parse_date(options.today),
      options.macros, &configs};
  std::string why;
  std::optional<compat::CompatReport> report = compat::check_compat_files(
      std::move(files[0]), std::move(files[1]), std::move(allow), compare, why);
  if (!report) {
    error(kCommand, "{}", why);
    return cli::kExitUsage;
  }
  diagnostics::DiagnosticCounts counts = diagnostics::count_diagnostics(report->diagnostics);
  fmt::print("{}", presentation::render_report(report->diagnostics, sources, options.format,
                                               compat::report_rules(), {{}, options.docs_url},
                                               presentation::rule_help(options.docs_url),
                                               cli::stdout_color()));
  if (options.format == "text" && report->allowed > 0) {
    fmt::print("{} breaking change{} accepted by the allow-list '{}'\n", report->allowed,
               report->allowed == 1 ? "" : "s", options.allow_file);
  }
  if (report->unusable_config) return cli::kExitUsage;  // reported as lint reports it
  return counts.errors > 0 ? cli::kExitProblems : cli::kExitOk;
}

}  // namespace

std::function<int()> bind_compat_command(CLI::App* cmd) {
  auto options = std::make_shared<CompatOptions>();
  cmd->add_option("old", options->old_file, "the file as it was (the baseline)");
  cmd->add_option("new", options->new_file, "the file as it is now");
  cmd->add_option(
      "--allow", options->allow_file,
      "a YAML allow-list of accepted breaks: '- {operator: NAME, rule: ID, reason: TEXT, "
      "expires: YYYY-MM-DD}' (rule and expires optional)");
  cli::add_format_option(cmd, options->format, {"text", "json", "sarif", "github"},
                         kReportFormatHelp);
  cmd->add_option("--today", options->today,
                  "the date allow-list expiry is checked against (default: today's UTC date)")
      ->check(compat::date_problem, "YYYY-MM-DD");
  cmd->add_flag("--list-rules", options->list_rules,
                "print every rule id, its severity and what it checks");
  cmd->add_option("--docs-url", options->docs_url, kDocsUrlHelp);
  cmd->add_option("--config", options->config_file,
                  "the .schemac.yaml OLD and NEW are read with (default: the nearest one above "
                  "NEW)");
  cmd->add_option("--language", options->language,
                  "how OLD and NEW are read: cpp, python (registration code) or yaml; default: "
                  "by the file's extension, else by its content")
      ->check(CLI::IsMember({"cpp", "python", "yaml"}));
  add_build_macro_options(cmd, options->macros);
  return [options] {
    if (!checked_docs_url(kCommand, options->docs_url)) return cli::kExitUsage;
    if (options->list_rules && options->format != "text" && options->format != "json") {
      error(kCommand, "--format {} does not apply to --list-rules: use text or json",
            options->format);
      return cli::kExitUsage;
    }
    return run_compat(*options);
  };
}

}  // namespace schemac::tool
