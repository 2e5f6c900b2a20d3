// `schemac lint [--format text|json|sarif] [--werror] [--tags FILE] [--kind native|backend|executorch]
// [--native-functions FILE] [--profile in-tree|extension] [--list-rules] [--list-tags] FILE...`:
// checks operator YAML files
// (native_functions.yaml, torchgen's backend YAML, executorch's kernel YAML; recognised by shape)
// and the schemas in C++ and Python registration code (chosen by extension, lib/sources; --verbose
// lists the calls whose schema is not a literal), then the rules across all the files given
// (lint_inputs.h), and reports every problem with its rule id, each rule kept and given its
// severity by the profile of the operator it is about. Text goes to stderr (colour only on a terminal and
// never with NO_COLOR), ending with "N errors, M warnings" and a count per rule; JSON and SARIF go
// to stdout. Exit 0 clean, 1 on errors (or warnings with --werror), 2 on usage or I/O errors.
#include <algorithm>
#include <array>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli.h"
#include "commands.h"
#include "input.h"
#include "parse_sources.h"
#include "report.h"
#include "schemac/diagnostics/diagnostic.h"
#include "schemac/lint/file_kinds.h"
#include "schemac/lint/lint_inputs.h"
#include "schemac/lint/lint_rules.h"
#include "schemac/lint/rule_selection.h"
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
  std::string profile = "automatic";  // or in-tree / extension: forced for every operator
  std::vector<std::string> files;
};

// The valid tags for `input`: from --tags, else from a tags.yaml beside it, else the built-in list
// of the newest PyTorch tags.
// Returns false (after printing why) when the tags file cannot be used.
bool tags_for(const LintOptions& options, const std::string& input,
              std::optional<std::vector<std::string>>& tags) {
  std::string path = options.tags_file;
  if (path.empty()) {
    fs::path beside = fs::path(input).parent_path() / "tags.yaml";
    std::error_code ec;
    if (!fs::is_regular_file(beside, ec)) {
      tags.emplace(schema::builtin_tags().begin(), schema::builtin_tags().end());
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

// --list-rules: each rule's id, severity in each profile it is in, and what it checks; with a
// forced profile only that profile's rules, with their severity there.
void print_rule_list(std::span<const schema::RuleInfo> rules, schema::Profile only, std::string_view format) {
  schema::LintOptions in_tree, extension;
  in_tree.profile = schema::Profile::in_tree;
  extension.profile = schema::Profile::extension;
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  std::vector<std::array<std::string, 3>> rows;  // id, profiles, description
  for (const schema::RuleInfo& rule : rules) {
    nlohmann::ordered_json profiles = nlohmann::ordered_json::object();
    std::string column;
    for (const schema::LintOptions* options : {&in_tree, &extension}) {
      if (only != schema::Profile::automatic && only != options->profile) continue;
      std::optional<schema::Severity> severity = schema::rule_applies(rule, *options, options->profile);
      if (!severity) continue;
      const std::string_view name = schema::profile_name(options->profile);
      profiles[std::string(name)] = schema::severity_name(*severity);
      column += fmt::format("{}{}:{}", column.empty() ? "" : " ", name, schema::severity_name(*severity));
    }
    if (column.empty()) continue;
    list.push_back({{"id", rule.id}, {"profiles", profiles}, {"description", rule.description}});
    rows.push_back({std::string(rule.id), column, std::string(rule.description)});
  }
  if (format == "json") {
    fmt::print("{}\n", list.dump(2));
    return;
  }
  size_t id_width = 0, profiles_width = 0;
  for (const auto& row : rows) {
    id_width = std::max(id_width, row[0].size());
    profiles_width = std::max(profiles_width, row[1].size());
  }
  for (const auto& row : rows) fmt::print("{:<{}}  {:<{}}  {}\n", row[0], id_width, row[1], profiles_width, row[2]);
}

void print_skipped(const sources::ScannedFile& file) {
  for (const sources::SkippedCall& skipped : file.scan.skipped) {
    fmt::print(stderr, "{}:{}:{}: note: skipped: {}\n", file.path, skipped.position.line,
               skipped.position.column, skipped.reason);
  }
}

int run_lint(const LintOptions& options) {
  const schema::Profile profile = schema::parse_profile(options.profile).value_or(schema::Profile::automatic);
  if (options.list_rules) {
    print_rule_list(all_rules(), profile, options.format);
    return kExitOk;
  }
  if (options.list_tags) {
    for (std::string_view tag : schema::builtin_tags()) fmt::print("{}\n", tag);
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
  file_options.native.profile = profile;
  if (!options.kind.empty()) file_options.kind = schema::parse_file_kind(options.kind);
  std::optional<schema::NativeFunctionsLoad> native;  // --native-functions, for backend YAMLs
  if (!options.native_functions_file.empty()) {
    std::optional<std::string> text = read_input(kCommand, options.native_functions_file, "native functions file");
    if (!text) return kExitUsage;
    native = schema::load_native_functions(options.native_functions_file, std::move(*text));
    file_options.native_functions = &native->file;
  }
  std::vector<sources::ScannedFile> scanned;  // C++ and Python files, checked together below
  std::vector<std::shared_ptr<const schema::NativeFunctionsFile>> native_files;  // for the rules across files
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
    schema::FileLint linted = schema::lint_file(file, std::move(*text), file_options);
    for (Diagnostic& d : linted.diagnostics) diagnostics.push_back(std::move(d));
    if (linted.native) native_files.push_back(std::move(linted.native));
  }
  std::vector<const schema::NativeFunctionsFile*> yaml;
  for (const auto& native_file : native_files) yaml.push_back(native_file.get());
  for (Diagnostic& d : schema::lint_registration_code(scanned, yaml, file_options.native)) diagnostics.push_back(std::move(d));
  for (Diagnostic& d : schema::check_duplicates_across_files(yaml, scanned)) diagnostics.push_back(std::move(d));
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
  cmd->add_flag("--list-rules", options->list_rules,
                "print every rule id, its severity in each profile and what it checks (with --format json: "
                "a JSON array; with --profile: that profile's rules only)");
  cmd->add_option("--profile", options->profile,
                  "the rules to apply: in-tree (torchgen's, for native_functions.yaml and its forks) or "
                  "extension (what TORCH_LIBRARY and torch.library enforce, plus out-of-tree best practice "
                  "as warnings); by default operators with a namespace other than aten, and registration "
                  "code, get extension and the rest in-tree")
      ->check(CLI::IsMember({"in-tree", "extension"}));
  cmd->add_flag("--verbose", options->verbose,
                "list the registration calls in C++/Python files whose schema is not a literal");
  cmd->add_flag("--list-tags", options->list_tags,
                "print the built-in tags (the newest PyTorch tags.yaml), used when no tags file is given or found");
  cmd->add_option("--kind", options->kind,
                  "the file format, when its shape should not decide: native (native_functions.yaml), backend "
                  "(torchgen's backend YAML) or executorch (executorch's kernel YAML)")
      ->check(CLI::IsMember({"native", "backend", "executorch"}));
  cmd->add_option("--native-functions", options->native_functions_file,
                  "the native_functions.yaml whose operators a backend YAML's lists must name");
  return [options] { return run_lint(*options); };
}

}  // namespace schemac::cli
