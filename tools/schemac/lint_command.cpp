// `schemac lint [--format text|json|sarif] [--werror] [--tags FILE] [--kind native|backend|executorch]
// [--native-functions FILE] [--torch-version X.Y] [--list-rules] [--list-tags] FILE...`: checks
// operator YAML files (native_functions.yaml, torchgen's backend YAML, executorch's kernel YAML;
// recognised by shape) as the torchgen of release X.Y reads them (docs/releases.md),
// and the schemas in C++ and Python registration code (chosen by extension, lib/sources; --verbose
// lists the calls whose schema is not a literal), and reports every problem with its rule id. Text goes to stderr (colour only on a terminal and
// never with NO_COLOR), ending with "N errors, M warnings" and a count per rule; JSON and SARIF go
// to stdout. Exit 0 clean, 1 on errors (or warnings with --werror), 2 on usage or I/O errors.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli.h"
#include "commands.h"
#include "input.h"
#include "parse_sources.h"
#include "report.h"
#include "torch_version_option.h"
#include "schemac/diagnostics/diagnostic.h"
#include "schemac/lint/file_kinds.h"
#include "schemac/lint/lint_rules.h"
#include "schemac/sources/lint.h"
#include "schemac/sources/scan.h"

namespace schemac::cli {
namespace {

namespace fs = std::filesystem;
using schema::Diagnostic;

constexpr std::string_view kCommand = "schemac lint";

struct LintOptions {
  std::string format = "text";
  bool werror = false;
  bool list_rules = false;
  bool list_tags = false;
  bool verbose = false;  // list the registration calls whose schema is not a literal
  std::string tags_file;  // empty: look for tags.yaml beside each input, else the built-in tags
  std::string kind;       // empty: recognised by shape
  std::string native_functions_file;  // what a backend YAML's operators are checked against
  schema::TorchVersion torch_version = schema::kNewestTorchVersion;
  std::vector<std::string> files;
};

// The valid tags for `input`: from --tags, else from a tags.yaml beside it, else the built-in list
// of the --torch-version release.
// Returns false (after printing why) when the tags file cannot be used.
bool tags_for(const LintOptions& options, const std::string& input,
              std::optional<std::vector<std::string>>& tags) {
  std::string path = options.tags_file;
  if (path.empty()) {
    fs::path beside = fs::path(input).parent_path() / "tags.yaml";
    std::error_code ec;
    if (!fs::is_regular_file(beside, ec)) {
      const auto builtin = schema::builtin_tags(options.torch_version);
      tags.emplace(builtin.begin(), builtin.end());
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

// The YAML rules, then the rules over registration code.
std::vector<schema::RuleInfo> all_rules() {
  std::vector<schema::RuleInfo> rules(schema::lint_rule_catalog().begin(),
                                      schema::lint_rule_catalog().end());
  for (const schema::RuleInfo& rule : sources::source_rule_catalog()) rules.push_back(rule);
  return rules;
}

void print_skipped(const sources::ScannedFile& file) {
  for (const sources::SkippedCall& skipped : file.scan.skipped) {
    fmt::print(stderr, "{}:{}:{}: note: skipped: {}\n", file.path, skipped.position.line,
               skipped.position.column, skipped.reason);
  }
}

int run_lint(const LintOptions& options) {
  if (options.list_rules) {
    print_rule_catalog(all_rules());
    return kExitOk;
  }
  if (options.list_tags) {
    for (std::string_view tag : schema::builtin_tags(options.torch_version)) fmt::print("{}\n", tag);
    return kExitOk;
  }
  if (options.files.empty()) {
    error(kCommand, "no input files (see 'schemac lint --help')");
    return kExitUsage;
  }
  std::vector<Diagnostic> diagnostics;
  schema::SourceFiles sources;
  bool io_error = false;
  schema::FileLintOptions file_options;
  file_options.native.torch_version = options.torch_version;
  if (!options.kind.empty()) file_options.kind = schema::parse_file_kind(options.kind);
  std::optional<schema::NativeFunctionsLoad> native;  // --native-functions, for backend YAMLs
  if (!options.native_functions_file.empty()) {
    std::optional<std::string> text = read_input(kCommand, options.native_functions_file, "native functions file");
    if (!text) return kExitUsage;
    native = schema::load_native_functions(options.native_functions_file, std::move(*text));
    file_options.native_functions = &native->file;
  }
  std::vector<sources::ScannedFile> scanned;  // C++ and Python files, checked together below
  for (const std::string& file : options.files) {
    std::optional<sources::Language> language = sources::language_for_path(file);
    std::optional<std::string> text =
        language ? read_source_file(kCommand, file) : read_input(kCommand, file);
    if (!text) {
      io_error = true;
      continue;
    }
    if (language) {
      scanned.push_back({file, sources::scan_source(*text, *language)});
      sources.add(file, std::move(*text));
      if (options.verbose) print_skipped(scanned.back());
      continue;
    }
    if (!tags_for(options, file, file_options.native.valid_tags)) {
      io_error = true;
      continue;
    }
    sources.add(file, *text);
    for (Diagnostic& d : schema::lint_file(file, std::move(*text), file_options).diagnostics) {
      diagnostics.push_back(std::move(d));
    }
  }
  for (Diagnostic& d : sources::lint_sources(scanned)) diagnostics.push_back(std::move(d));
  schema::DiagnosticCounts counts = schema::count_diagnostics(diagnostics);
  print_report(diagnostics, sources, options.format, all_rules());
  if (options.format == "text" && !diagnostics.empty()) fmt::print(stderr, "{}", schema::render_rule_counts(diagnostics));
  if (io_error) return kExitUsage;
  if (counts.errors > 0 || (options.werror && counts.warnings > 0)) return kExitProblems;
  return kExitOk;
}

}  // namespace

std::function<int()> bind_lint_command(CLI::App* cmd) {
  auto options = std::make_shared<LintOptions>();
  cmd->add_option("files", options->files,
                  "native_functions.yaml, backend or executorch kernel YAML files, and C++ (.cpp .cc "
                  ".cxx .cu .h .hpp .cuh) or Python (.py) files whose TORCH_LIBRARY blocks and "
                  "torch.library calls define operators");
  add_format_option(cmd, options->format, {"text", "json", "sarif"}, kReportFormatHelp);
  cmd->add_flag("--werror", options->werror, "treat warnings as errors (exit 1 when any is found)");
  cmd->add_option("--tags", options->tags_file,
                  "the tags.yaml that lists valid tags; without it, a tags.yaml beside each input "
                  "is used when there is one, else the built-in list (--list-tags)");
  cmd->add_flag("--list-rules", options->list_rules, "print every rule id, its severity and what it checks");
  cmd->add_flag("--verbose", options->verbose,
                "list the registration calls in C++/Python files whose schema is not a literal");
  cmd->add_flag("--list-tags", options->list_tags,
                "print the built-in tags (the --torch-version release's tags.yaml), used when no tags file is given or found");
  add_torch_version_option(cmd, options->torch_version);
  cmd->add_option("--kind", options->kind,
                  "the file format, when its shape should not decide: native (native_functions.yaml), backend "
                  "(torchgen's backend YAML) or executorch (executorch's kernel YAML)")
      ->check(CLI::IsMember({"native", "backend", "executorch"}));
  cmd->add_option("--native-functions", options->native_functions_file,
                  "the native_functions.yaml whose operators a backend YAML's lists must name");
  return [options] { return run_lint(*options); };
}

}  // namespace schemac::cli
