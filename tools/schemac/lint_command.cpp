// `schemac lint [--format text|json|sarif|github] [--werror] [--tags FILE] [--kind
// native|backend|executorch]
// [--native-functions FILE] [--profile in-tree|extension] [--torch-version X.Y] [--list-rules]
// [--list-tags] [--fix [--diff]]
// [--config FILE] [--select/--ignore RULE,...] [--baseline FILE] [--max-errors N] FILE|DIR|-...`:
// checks operator YAML files (native_functions.yaml, torchgen's backend YAML, executorch's kernel
// YAML; recognised by shape, as the torchgen of release X.Y reads them: docs/releases.md) and the
// schemas in C++ and Python registration code (chosen by extension, lib/sources; --verbose lists
// the calls whose schema is not a literal), then the rules across all the files given
// (schemac/lint/lint_inputs.h), and reports every problem with its rule id, on stdout, each rule
// kept and given its severity by the profile of the operator it is about. Each input's
// .schemac.yaml (lib/config, config_files.h), its suppression comments and the baseline decide what
// is reported; lint_inputs.h expands folders and stdin; lint_fix.h applies fix-its. Exit 0 clean, 1
// on errors (or warnings with
// --werror), 2 on usage or I/O errors.
#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "build_macros.h"
#include "cli.h"
#include "commands.h"
#include "config_files.h"
#include "input.h"
#include "lint_fix.h"
#include "lint_inputs.h"
#include "parse_sources.h"
#include "report.h"
#include "schemac/config/config.h"
#include "schemac/diagnostics/baseline.h"
#include "schemac/diagnostics/diagnostic.h"
#include "schemac/diagnostics/suppressions.h"
#include "schemac/lint/file_kinds.h"
#include "schemac/lint/lint_inputs.h"
#include "schemac/lint/lint_rules.h"
#include "schemac/lint/rule_selection.h"
#include "schemac/sources/lint.h"
#include "schemac/sources/scan.h"
#include "schemac/support/did_you_mean.h"
#include "torch_version_option.h"

namespace schemac::tool {

using cli::error, cli::kExitOk, cli::kExitUsage, cli::read_input;

namespace {

namespace fs = std::filesystem;
using diagnostics::Diagnostic;

constexpr std::string_view kCommand = "schemac lint";

struct LintOptions {
  std::string format = "text";
  bool werror = false;
  bool list_rules = false;
  bool list_tags = false;
  bool verbose = false;   // list the registration calls whose schema is not a literal
  std::string tags_file;  // empty: look for tags.yaml beside each input, else the built-in tags
  std::string kind;       // empty: recognised by shape
  std::string native_functions_file;  // what a backend YAML's operators are checked against
  std::string profile = "automatic";  // or in-tree / extension: forced for every operator
  torch_releases::TorchVersion torch_version = torch_releases::kNewestTorchVersion;
  bool torch_version_given = false;  // else each input's .schemac.yaml may name one
  std::vector<std::string> files;
  // The daily loop: fixing, configuration, selection, baseline, stdin.
  bool fix = false;
  bool diff = false;  // with --fix: print a unified diff, write nothing
  std::string stdin_filename;
  std::string config_file;  // empty: each input's nearest .schemac.yaml
  bool show_config = false;
  std::vector<std::string> select;
  std::vector<std::string> ignore;
  size_t max_errors = 0;  // 0: no limit
  std::string baseline_file;
  BuildMacroOptions macros;  // -D, -U (with each input's config's defines)
};

// The valid tags for `input`: from --tags, else from a tags.yaml beside it, else the built-in list
// of `release`.
// Returns false (after printing why) when the tags file cannot be used.
bool tags_for(const LintOptions& options, const config::Config& config, const std::string& input,
              torch_releases::TorchVersion release, std::optional<std::vector<std::string>>& tags) {
  std::string path = options.tags_file.empty() ? config.tags.value_or("") : options.tags_file;
  if (path.empty()) {
    fs::path beside = fs::path(input).parent_path() / "tags.yaml";
    std::error_code ec;
    if (!fs::is_regular_file(beside, ec)) {
      const auto builtin = torch_releases::builtin_tags(release);
      tags.emplace(builtin.begin(), builtin.end());
      return true;
    }
    path = beside.string();
  }
  std::optional<std::string> text = read_input(kCommand, path, "tags file");
  if (!text) return false;
  lint::TagsLoad load = lint::load_tags(path, std::move(*text));
  if (!load.diagnostics.empty()) {
    diagnostics::SourceFiles sources;
    fmt::print(stderr, "{}",
               diagnostics::render_text(load.diagnostics, sources, {cli::stderr_color()}));
    error(kCommand, "tags file '{}' is not usable", path);
    return false;
  }
  tags = std::move(load.tags);
  return true;
}

// The YAML rules, then the rules over registration code.
std::vector<diagnostics::RuleInfo> all_rules() {
  std::vector<diagnostics::RuleInfo> rules(lint::lint_rule_catalog().begin(),
                                           lint::lint_rule_catalog().end());
  for (const diagnostics::RuleInfo& rule : sources::source_rule_catalog()) rules.push_back(rule);
  rules.push_back(diagnostics::unused_suppression_rule());
  rules.push_back({"config", diagnostics::Severity::error,
                   "a .schemac.yaml is readable and names only known keys and rules"});
  return rules;
}

// --list-rules: each rule's id, severity in each profile it is in, and what it checks; with a
// forced profile only that profile's rules, with their severity there.
void print_rule_list(std::span<const diagnostics::RuleInfo> rules, lint::Profile only,
                     std::string_view format) {
  lint::LintOptions in_tree, extension;
  in_tree.profile = lint::Profile::in_tree;
  extension.profile = lint::Profile::extension;
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  std::vector<std::array<std::string, 3>> rows;  // id, profiles, description
  for (const diagnostics::RuleInfo& rule : rules) {
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
    list.push_back({{"id", rule.id},
                    {"profiles", profiles},
                    {"description", rule.description},
                    {"helpUri", fmt::format("{}#{}", kRulesDocUri, rule.id)}});
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
  for (const auto& row : rows)
    fmt::print("{:<{}}  {:<{}}  {}\n", row[0], id_width, row[1], profiles_width, row[2]);
}

void print_skipped(const sources::ScannedFile& file) {
  for (const sources::SkippedCall& skipped : file.scan.skipped) {
    fmt::print(stderr, "{}:{}:{}: note: skipped: {}\n", file.path, skipped.position.line,
               skipped.position.column, skipped.reason);
  }
}

// For registration code, an entry is a found schema: its first line is where its literal starts.
diagnostics::EntryFirstLine code_entry_first_line(const sources::ScanResult& scan) {
  std::vector<uint32_t> lines;
  for (const sources::FoundSchema& found : scan.schemas) lines.push_back(found.position.line);
  std::sort(lines.begin(), lines.end());
  return [lines = std::move(lines)](uint32_t line) {
    auto it = std::upper_bound(lines.begin(), lines.end(), line);
    return it == lines.begin() ? line : *(it - 1);
  };
}

// An input with the config that applies to it.
struct ConfiguredInput {
  const LintInput* input;
  config::Config config;
};

// Lints the inputs, whose texts are `texts`: each file's findings after its suppression
// comments and its config, and the findings across registration code files. Inputs found in a
// folder whose shape is not an operator YAML are dropped from `inputs`. Returns false on an
// unusable tags file.
bool lint_inputs(const LintOptions& options, lint::FileLintOptions file_options,
                 std::vector<ConfiguredInput>& inputs, const std::vector<std::string>& texts,
                 std::vector<Diagnostic>& diagnostics) {
  std::vector<std::vector<Diagnostic>> found(inputs.size());
  std::vector<diagnostics::EntryFirstLine> entry_first_line(inputs.size());
  std::vector<bool> keep(inputs.size(), true);
  std::vector<sources::ScannedFile> scanned;  // C++ and Python files, checked together below
  std::vector<std::shared_ptr<const native_functions::NativeFunctionsFile>>
      native_files;  // for the rules across files
  bool ok = true;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const std::string& path = inputs[i].input->path;
    if (std::optional<sources::Language> language = sources::language_for_path(path)) {
      std::optional<tokens::MacroTable> macros =
          build_macros(kCommand, options.macros, &inputs[i].config);
      if (!macros) {
        ok = keep[i] = false;
        continue;
      }
      scanned.push_back({path, sources::scan_source(texts[i], *language, &*macros)});
      entry_first_line[i] = code_entry_first_line(scanned.back().scan);
      continue;
    }
    lint::FileLintOptions input_options = file_options;
    const config::Config& config = inputs[i].config;
    if (options.profile == "automatic" && config.profile) {
      input_options.native.profile =
          lint::parse_profile(*config.profile).value_or(lint::Profile::automatic);
    }
    if (!options.torch_version_given && config.torch_version) {
      std::optional<torch_releases::TorchVersion> version =
          torch_releases::parse_torch_version(*config.torch_version);
      if (!version) {
        error(kCommand,
              "{}: torch-version '{}' of its .schemac.yaml is not a release lint knows ({})", path,
              *config.torch_version, torch_releases::known_torch_versions_text());
        ok = keep[i] = false;
        continue;
      }
      input_options.native.torch_version = *version;
    }
    if (!tags_for(options, config, path, input_options.native.torch_version,
                  input_options.native.valid_tags)) {
      ok = keep[i] = false;
      continue;
    }
    lint::FileLint lint = lint::lint_file(path, texts[i], input_options);
    if (inputs[i].input->from_folder && lint.kind == lint::FileKind::unknown) {
      keep[i] = false;  // not an operator file
      continue;
    }
    found[i] = std::move(lint.diagnostics);
    if (lint.native) native_files.push_back(std::move(lint.native));
    entry_first_line[i] = diagnostics::yaml_entry_first_line(texts[i]);
  }
  std::vector<const native_functions::NativeFunctionsFile*> yaml;
  for (const auto& native_file : native_files) yaml.push_back(native_file.get());
  std::vector<Diagnostic> across = lint::lint_registration_code(scanned, yaml, file_options.native);
  for (Diagnostic& d : lint::check_duplicates_across_files(yaml, scanned))
    across.push_back(std::move(d));
  for (Diagnostic& d : across) {
    auto owner = std::find_if(inputs.begin(), inputs.end(), [&](const ConfiguredInput& in) {
      return in.input->path == d.location.file;
    });
    if (owner == inputs.end()) {
      diagnostics.push_back(std::move(d));
    } else {
      found[owner - inputs.begin()].push_back(std::move(d));
    }
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!keep[i]) continue;
    const std::string& path = inputs[i].input->path;
    diagnostics::apply_suppressions(found[i], path, texts[i], diagnostics::comment_style_for(path),
                                    entry_first_line[i]);
    config::apply_config(inputs[i].config, found[i]);
    for (Diagnostic& d : found[i]) diagnostics.push_back(std::move(d));
  }
  return ok;
}

int show_config(const LintOptions& options) {
  cli::ConfigFiles configs(options.config_file, all_rules());
  std::vector<Diagnostic> problems;
  std::vector<std::string> inputs =
      options.files.empty() ? std::vector<std::string>{"."} : options.files;
  for (const std::string& input : inputs) {
    const config::Config* config =
        configs.for_input(input == "-" ? options.stdin_filename : input, problems);
    if (config == nullptr) continue;
    if (inputs.size() > 1) fmt::print("# for: {}\n", input);
    fmt::print("{}", config::render_config(
                         config::merge_command_line(*config, {options.select, options.ignore})));
  }
  if (problems.empty()) return kExitOk;
  diagnostics::SourceFiles none;
  fmt::print(stderr, "{}", diagnostics::render_text(problems, none, {cli::stderr_color()}));
  return kExitUsage;
}

// Keeps the report to the first `max_errors` errors (and what comes before the last of them).
void limit_errors(std::vector<Diagnostic>& diagnostics, size_t max_errors) {
  size_t errors = 0;
  for (size_t i = 0; i < diagnostics.size(); ++i) {
    if (diagnostics[i].severity != diagnostics::Severity::error || ++errors <= max_errors) continue;
    size_t dropped = std::count_if(
        diagnostics.begin() + i, diagnostics.end(),
        [](const Diagnostic& d) { return d.severity == diagnostics::Severity::error; });
    diagnostics.resize(i);
    fmt::print(stderr, "{}: note: stopped after {} errors (--max-errors); {} more not shown\n",
               kCommand, max_errors, dropped);
    return;
  }
}

// Records today's findings in a new baseline file (`recorded`), or reads the existing one into
// `baseline`. Returns false on an unreadable or malformed baseline.
bool use_baseline(const std::string& path, const std::vector<Diagnostic>& today,
                  std::optional<std::vector<diagnostics::BaselineEntry>>& baseline,
                  bool& recorded) {
  std::error_code ec;
  if (!fs::exists(path, ec)) {
    std::ofstream out(path, std::ios::binary);
    out << diagnostics::render_baseline(today);
    if (!out.flush()) {
      error(kCommand, "cannot write baseline '{}'", path);
      return false;
    }
    fmt::print(stderr, "{}: recorded {} finding{} in baseline '{}'\n", kCommand, today.size(),
               today.size() == 1 ? "" : "s", path);
    recorded = true;
    return true;
  }
  std::optional<std::string> text = read_input(kCommand, path, "baseline");
  if (!text) return false;
  std::string why;
  baseline = diagnostics::parse_baseline(*text, why);
  if (!baseline) error(kCommand, "baseline '{}' is not usable: {}", path, why);
  return baseline.has_value();
}

// Whether every id given to `option` names a rule (or is "all"); says which does not otherwise.
bool known_rules(const std::vector<std::string>& ids, std::string_view option) {
  const std::vector<diagnostics::RuleInfo> rules = all_rules();
  std::vector<std::string_view> names;
  for (const diagnostics::RuleInfo& rule : rules) names.push_back(rule.id);
  for (const std::string& id : ids) {
    if (id == "all" || std::find(names.begin(), names.end(), id) != names.end()) continue;
    std::optional<std::string> guess = support::did_you_mean(id, names);
    error(kCommand, "{}: unknown rule '{}'{}", option, id,
          guess ? fmt::format("; did you mean '{}'?", *guess) : "");
    return false;
  }
  return true;
}

int run_lint(const LintOptions& options) {
  const lint::Profile profile =
      lint::parse_profile(options.profile).value_or(lint::Profile::automatic);
  if (options.list_rules) {
    print_rule_list(all_rules(), profile, options.format);
    return kExitOk;
  }
  if (options.list_tags) {
    for (std::string_view tag : torch_releases::builtin_tags(options.torch_version))
      fmt::print("{}\n", tag);
    return kExitOk;
  }
  if (options.show_config) return show_config(options);
  if (options.files.empty()) {
    error(kCommand, "no input files (see 'schemac lint --help')");
    return kExitUsage;
  }
  if (!known_rules(options.select, "--select") || !known_rules(options.ignore, "--ignore"))
    return kExitUsage;
  if (!build_macros(kCommand, options.macros)) return kExitUsage;
  const bool reads_stdin =
      std::find(options.files.begin(), options.files.end(), "-") != options.files.end();
  if (options.fix && !options.diff && reads_stdin) {
    error(kCommand, "--fix cannot rewrite stdin; use --fix --diff");
    return kExitUsage;
  }
  lint::FileLintOptions file_options;
  file_options.native.profile = profile;
  file_options.native.torch_version = options.torch_version;
  if (!options.kind.empty()) file_options.kind = lint::parse_file_kind(options.kind);
  std::optional<native_functions::NativeFunctionsLoad>
      native;  // --native-functions, for backend YAMLs
  if (!options.native_functions_file.empty()) {
    std::optional<std::string> text =
        read_input(kCommand, options.native_functions_file, "native functions file");
    if (!text) return kExitUsage;
    native =
        native_functions::load_native_functions(options.native_functions_file, std::move(*text));
    file_options.native_functions = &native->file;
  }
  bool io_error = false;
  ReportRun run;
  const std::vector<LintInput> read =
      read_lint_inputs(options.files, options.stdin_filename, io_error, run.tool_errors);
  const std::vector<diagnostics::RuleInfo> rules = all_rules();
  cli::ConfigFiles configs(options.config_file, rules);
  std::vector<Diagnostic> config_problems;
  std::vector<ConfiguredInput> inputs;
  for (const LintInput& input : read) {
    const std::string where = input.from_stdin && options.stdin_filename.empty() ? "." : input.path;
    const config::Config* config = configs.for_input(where, config_problems);
    if (config == nullptr) {
      io_error = true;
      continue;
    }
    inputs.push_back(
        {&input, config::merge_command_line(*config, {options.select, options.ignore})});
  }
  std::vector<std::string> texts;
  for (const ConfiguredInput& input : inputs) {
    texts.push_back(input.input->text);
    std::optional<sources::Language> language = sources::language_for_path(input.input->path);
    std::optional<tokens::MacroTable> macros =
        build_macros(kCommand, options.macros, &input.config);
    if (options.verbose && language && macros)
      print_skipped({input.input->path, sources::scan_source(texts.back(), *language, &*macros)});
  }
  // Every finding for `current` texts, the baseline's excused ones dropped.
  std::optional<std::vector<diagnostics::BaselineEntry>> baseline;
  bool baseline_recorded = false;
  auto lint_all = [&](const std::vector<std::string>& current) {
    std::vector<Diagnostic> diagnostics = config_problems;
    if (!lint_inputs(options, file_options, inputs, current, diagnostics)) io_error = true;
    if (baseline) diagnostics::drop_baselined(diagnostics, *baseline);
    return diagnostics;
  };
  if (!options.baseline_file.empty()) {
    std::vector<Diagnostic> today = lint_all(texts);
    if (!use_baseline(options.baseline_file, today, baseline, baseline_recorded)) return kExitUsage;
  }
  if (options.fix || options.diff) {
    std::vector<std::string> paths;
    for (const ConfiguredInput& input : inputs) paths.push_back(input.input->path);
    FixSummary fixed = fix_files(paths, texts, lint_all, options.diff);
    if (fixed.io_error) io_error = true;
    if (options.diff) return io_error ? kExitUsage : fixed.fixed > 0 ? cli::kExitProblems : kExitOk;
    if (fixed.fixed > 0 || fixed.left_out > 0) {
      fmt::print(
          stderr, "{}: fixed {} problem{}{}\n", kCommand, fixed.fixed, fixed.fixed == 1 ? "" : "s",
          fixed.left_out > 0
              ? fmt::format(", {} fix{} left out", fixed.left_out, fixed.left_out == 1 ? "" : "es")
              : "");
    }
  }
  std::vector<Diagnostic> diagnostics = baseline_recorded ? config_problems : lint_all(texts);
  diagnostics::SourceFiles sources;
  for (size_t i = 0; i < inputs.size(); ++i) sources.add(inputs[i].input->path, texts[i]);
  diagnostics::sort_diagnostics(diagnostics);
  diagnostics::DiagnosticCounts counts = diagnostics::count_diagnostics(diagnostics);
  if (options.max_errors > 0) limit_errors(diagnostics, options.max_errors);
  print_report(diagnostics, sources, options.format, rules, run);
  if (options.format == "text" && !diagnostics.empty())
    fmt::print("{}", lint::render_rule_counts(diagnostics));
  if (io_error) return kExitUsage;
  if (counts.errors > 0 || (options.werror && counts.warnings > 0)) return cli::kExitProblems;
  return kExitOk;
}

void add_daily_loop_options(CLI::App* cmd, LintOptions& options) {
  cmd->add_flag("--fix", options.fix,
                "apply every safe fix-it in place (atomically; every other byte is kept)");
  cmd->add_flag("--diff", options.diff,
                "with --fix: print the fixes as a unified diff and write nothing");
  cmd->add_option(
      "--stdin-filename", options.stdin_filename,
      "the name of the file read from stdin ('-'): in messages, and to choose how it is read");
  cmd->add_option("--config", options.config_file,
                  "the .schemac.yaml to use (default: the nearest one above each input)");
  cmd->add_flag("--show-config", options.show_config,
                "print the configuration that applies (merged with the command line) and exit");
  cmd->add_option("--select", options.select, "report only these rules (comma-separated ids)")
      ->delimiter(',');
  cmd->add_option("--ignore", options.ignore, "never report these rules (comma-separated ids)")
      ->delimiter(',');
  cmd->add_option("--max-errors", options.max_errors,
                  "show at most N errors (the exit code still counts all)");
  cmd->add_option(
      "--baseline", options.baseline_file,
      "a baseline file: when it does not exist, today's findings are recorded in it; when it does, "
      "only findings it does not record are reported");
}

}  // namespace

std::function<int()> bind_lint_command(CLI::App* cmd) {
  auto options = std::make_shared<LintOptions>();
  cmd->add_option(
      "files", options->files,
      "native_functions.yaml, backend or executorch kernel YAML files, and C++ (.cpp .cc "
      ".cxx .cu .h .hpp .cuh) or Python (.py) files whose TORCH_LIBRARY blocks and "
      "torch.library calls define operators");
  cli::add_format_option(cmd, options->format, {"text", "json", "sarif", "github"},
                         kReportFormatHelp);
  cmd->add_flag("--werror", options->werror, "treat warnings as errors (exit 1 when any is found)");
  cmd->add_option("--tags", options->tags_file,
                  "the tags.yaml that lists valid tags; without it, a tags.yaml beside each input "
                  "is used when there is one, else the built-in list (--list-tags)");
  cmd->add_flag(
      "--list-rules", options->list_rules,
      "print every rule id, its severity in each profile and what it checks (with --format json: "
      "a JSON array; with --profile: that profile's rules only)");
  cmd->add_option(
         "--profile", options->profile,
         "the rules to apply: in-tree (torchgen's, for native_functions.yaml and its forks) or "
         "extension (what TORCH_LIBRARY and torch.library enforce, plus out-of-tree best practice "
         "as warnings); by default operators with a namespace other than aten, and registration "
         "code, get extension and the rest in-tree")
      ->check(CLI::IsMember({"in-tree", "extension"}));
  cmd->add_flag("--verbose", options->verbose,
                "list the registration calls in C++/Python files whose schema is not a literal");
  cmd->add_flag("--list-tags", options->list_tags,
                "print the built-in tags (the --torch-version release's tags.yaml), used when no "
                "tags file is given or found");
  add_torch_version_option(cmd, options->torch_version, &options->torch_version_given);
  cmd->add_option("--kind", options->kind,
                  "the file format, when its shape should not decide: native "
                  "(native_functions.yaml), backend "
                  "(torchgen's backend YAML) or executorch (executorch's kernel YAML)")
      ->check(CLI::IsMember({"native", "backend", "executorch"}));
  cmd->add_option("--native-functions", options->native_functions_file,
                  "the native_functions.yaml whose operators a backend YAML's lists must name");
  add_daily_loop_options(cmd, *options);
  add_build_macro_options(cmd, options->macros);
  return [options] { return run_lint(*options); };
}

}  // namespace schemac::tool
