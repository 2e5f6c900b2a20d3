// `schemac lint [--format text|json|sarif] [--werror] [--tags FILE] [--list-rules] FILE...`:
// checks native-functions files and reports every problem with its rule id. Text goes to
// stderr (colour only on a terminal and never with NO_COLOR), ending with "N errors, M warnings";
// JSON and SARIF go to stdout. Exit 0 clean, 1 on errors (or warnings with --werror), 2 on
// usage or I/O errors.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli.h"
#include "commands.h"
#include "input.h"
#include "report.h"
#include "schemac/diagnostics/diagnostic.h"
#include "schemac/lint/lint_rules.h"

namespace schemac::cli {
namespace {

namespace fs = std::filesystem;
using schema::Diagnostic;

constexpr std::string_view kCommand = "schemac lint";

struct LintOptions {
  std::string format = "text";
  bool werror = false;
  bool list_rules = false;
  std::string tags_file;  // empty: look for tags.yaml beside each input
  std::vector<std::string> files;
};

// The valid tags for `input`: from --tags, else from a tags.yaml beside it, else none (unchecked).
// Returns false (after printing why) when the tags file cannot be used.
bool tags_for(const LintOptions& options, const std::string& input,
              std::optional<std::vector<std::string>>& tags) {
  std::string path = options.tags_file;
  if (path.empty()) {
    fs::path beside = fs::path(input).parent_path() / "tags.yaml";
    std::error_code ec;
    if (!fs::is_regular_file(beside, ec)) {
      tags.reset();
      return true;
    }
    path = beside.string();
  }
  std::optional<std::string> text = read_input(kCommand, path, "tags file");
  if (!text) return false;
  schema::TagsLoad load = schema::load_tags(path, std::move(*text));
  if (!load.diagnostics.empty()) {
    schema::SourceFiles sources;
    fmt::print(stderr, "{}", schema::render_text(load.diagnostics, sources));
    error(kCommand, "tags file '{}' is not usable", path);
    return false;
  }
  tags = std::move(load.tags);
  return true;
}

int run_lint(const LintOptions& options) {
  if (options.list_rules) {
    print_rule_catalog(schema::lint_rule_catalog());
    return kExitOk;
  }
  if (options.files.empty()) {
    error(kCommand, "no input files (see 'schemac lint --help')");
    return kExitUsage;
  }
  std::vector<Diagnostic> diagnostics;
  schema::SourceFiles sources;
  bool io_error = false;
  for (const std::string& file : options.files) {
    std::optional<std::string> text = read_input(kCommand, file);
    if (!text) {
      io_error = true;
      continue;
    }
    schema::LintOptions lint_options;
    if (!tags_for(options, file, lint_options.valid_tags)) {
      io_error = true;
      continue;
    }
    sources.add(file, *text);
    for (Diagnostic& d : schema::lint_native_functions(file, std::move(*text), lint_options)) {
      diagnostics.push_back(std::move(d));
    }
  }
  schema::DiagnosticCounts counts = schema::count_diagnostics(diagnostics);
  print_report(diagnostics, sources, options.format, schema::lint_rule_catalog());
  if (io_error) return kExitUsage;
  if (counts.errors > 0 || (options.werror && counts.warnings > 0)) return kExitProblems;
  return kExitOk;
}

// The subcommand, what it does, and its --help footer.
const CommandInfo kLintCommand = {"lint", "Check native-functions YAML files: every problem, with its line, column and rule id",
    "Output: file:line:col: error|warning: message [rule-id], the source line and a caret.\n"
    "Colour only when stderr is a terminal and NO_COLOR is unset.\n"
    "Exit codes: 0 clean, 1 errors (or warnings with --werror), 2 usage or I/O errors.\n"
    "Example: schemac lint --format sarif native_functions.yaml > lint.sarif"};

}  // namespace

void add_lint_command(CLI::App& app) {
  auto options = std::make_shared<LintOptions>();
  CLI::App* cmd = add_command(app, kLintCommand, [options] { return run_lint(*options); });
  cmd->add_option("files", options->files, "native_functions.yaml-style files to check");
  add_format_option(cmd, options->format, {"text", "json", "sarif"}, kReportFormatHelp);
  cmd->add_flag("--werror", options->werror, "treat warnings as errors (exit 1 when any is found)");
  cmd->add_option("--tags", options->tags_file,
                  "the tags.yaml that lists valid tags; without it, a tags.yaml beside each input "
                  "is used when there is one, and tags are not checked when there is none");
  cmd->add_flag("--list-rules", options->list_rules, "print every rule id, its severity and what it checks");
}

}  // namespace schemac::cli
