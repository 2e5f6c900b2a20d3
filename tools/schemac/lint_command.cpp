// `schemac lint [--format text|json|sarif] [--werror] [--tags FILE] [--list-rules] FILE...`:
// checks native-functions files and reports every problem with its rule id. Text goes to
// stderr (colour only on a terminal and never with NO_COLOR), ending with "N errors, M warnings";
// JSON and SARIF go to stdout. Exit 0 clean, 1 on errors (or warnings with --werror), 2 on
// usage or I/O errors.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "commands.h"
#include "schemac/diagnostics/diagnostic.h"
#include "schemac/lint/lint_rules.h"
#include "read_file.h"

namespace schemac::cli {
namespace {

namespace fs = std::filesystem;
using schema::Diagnostic;

struct LintOptions {
  std::string format = "text";
  bool werror = false;
  bool list_rules = false;
  std::string tags_file;  // empty: look for tags.yaml beside each input
  std::vector<std::string> files;
};

void print_rules() {
  size_t width = 0;
  for (const schema::RuleInfo& rule : schema::lint_rule_catalog()) width = std::max(width, rule.id.size());
  for (const schema::RuleInfo& rule : schema::lint_rule_catalog()) {
    fmt::print("{:<{}}  {:<7}  {}\n", rule.id, width, schema::severity_name(rule.severity),
               rule.description);
  }
}

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
  std::optional<std::string> text = read_file(path);
  if (!text) {
    fmt::print(stderr, "schemac lint: error: cannot read tags file '{}'\n", path);
    return false;
  }
  schema::TagsLoad load = schema::load_tags(path, std::move(*text));
  if (!load.diagnostics.empty()) {
    schema::SourceFiles sources;
    fmt::print(stderr, "{}", schema::render_text(load.diagnostics, sources));
    fmt::print(stderr, "schemac lint: error: tags file '{}' is not usable\n", path);
    return false;
  }
  tags = std::move(load.tags);
  return true;
}

bool use_color() {
  const char* no_color = std::getenv("NO_COLOR");
  return isatty(fileno(stderr)) && (no_color == nullptr || no_color[0] == '\0');
}

int run_lint(const LintOptions& options) {
  if (options.list_rules) {
    print_rules();
    return 0;
  }
  if (options.files.empty()) {
    fmt::print(stderr, "schemac lint: error: no input files (see 'schemac lint --help')\n");
    return 2;
  }
  std::vector<Diagnostic> diagnostics;
  schema::SourceFiles sources;
  bool io_error = false;
  for (const std::string& file : options.files) {
    std::optional<std::string> text = read_file(file);
    if (!text) {
      fmt::print(stderr, "schemac lint: error: cannot read '{}'\n", file);
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
  if (options.format == "json") {
    fmt::print("{}", schema::render_json(diagnostics));
  } else if (options.format == "sarif") {
    schema::ToolInfo tool{"schemac", "0.1.0", "", schema::lint_rule_catalog()};
    fmt::print("{}", schema::render_sarif(diagnostics, tool));
  } else if (!diagnostics.empty()) {
    schema::TextStyle style{use_color()};
    fmt::print(stderr, "{}{}", schema::render_text(diagnostics, sources, style),
               schema::render_summary(counts));
  }
  std::fflush(stdout);
  if (io_error) return 2;
  if (counts.errors > 0 || (options.werror && counts.warnings > 0)) return 1;
  return 0;
}

}  // namespace

void add_lint_command(CLI::App& app) {
  auto options = std::make_shared<LintOptions>();
  CLI::App* cmd = app.add_subcommand(
      "lint", "Check native-functions YAML files: every problem, with its line, column and rule id");
  cmd->add_option("files", options->files, "native_functions.yaml-style files to check");
  cmd->add_option("--format", options->format,
                  "text (to stderr, with source lines; the default), json or sarif (to stdout)")
      ->check(CLI::IsMember({"text", "json", "sarif"}));
  cmd->add_flag("--werror", options->werror, "treat warnings as errors (exit 1 when any is found)");
  cmd->add_option("--tags", options->tags_file,
                  "the tags.yaml that lists valid tags; without it, a tags.yaml beside each input "
                  "is used when there is one, and tags are not checked when there is none");
  cmd->add_flag("--list-rules", options->list_rules, "print every rule id, its severity and what it checks");
  cmd->footer(
      "Output: file:line:col: error|warning: message [rule-id], the source line and a caret.\n"
      "Colour only when stderr is a terminal and NO_COLOR is unset.\n"
      "Exit codes: 0 clean, 1 errors (or warnings with --werror), 2 usage or I/O errors.\n"
      "Example: schemac lint --format sarif native_functions.yaml > lint.sarif");
  cmd->callback([options] { exit_code() = run_lint(*options); });
}

}  // namespace schemac::cli
