// `schemac lint [--format text|json|sarif|github] [--werror] [--tags FILE] [--kind
// native|backend|executorch] [--native-functions FILE] [--profile in-tree|extension]
// [--torch-version X.Y] [--list-rules] [--list-tags] [--fix [--diff]] [--config FILE]
// [--select/--ignore RULE,...] [--baseline FILE] [--max-errors N] FILE|DIR|-...`: checks operator
// YAML files (native_functions.yaml, torchgen's backend YAML, executorch's kernel YAML; recognised
// by shape, as the torchgen of release X.Y reads them: docs/releases.md) and the schemas in C++
// and Python registration code (chosen by extension, else by content: lib/sources' language.h;
// --verbose lists the calls whose schema is not a literal), then the rules across all the files
// given, and reports every problem with its rule id on stdout. This command binds options and
// prints; the libraries do the rest: what it reads (engine/inputs.h: stdin, files, folders by
// lib/inputs' search), the lint engine (engine/engine.h: each input's .schemac.yaml, release,
// tags, profile, suppression comments, per-path, baseline), the one `schemac lsp` and `gen` ask
// too; --fix's rounds (diagnostics/fixes.h); the report in each --format (lib/report).
// Exit 0 clean, 1 on errors (or warnings with --werror), 2 on usage or I/O errors.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "build_macros.h"
#include "cli.h"
#include "commands.h"
#include "file_output.h"
#include "input.h"
#include "lint_inputs.h"
#include "report.h"
#include "schemac/config/provider.h"
#include "schemac/diagnostics/baseline.h"
#include "schemac/diagnostics/diagnostic.h"
#include "schemac/diagnostics/fixes.h"
#include "schemac/engine/baseline_file.h"
#include "schemac/engine/engine.h"
#include "schemac/engine/inputs.h"
#include "schemac/lint/file_kinds.h"
#include "schemac/lint/lint_rules.h"
#include "schemac/sources/scan.h"
#include "torch_version_option.h"

namespace schemac::tool {

using cli::error, cli::kExitOk, cli::kExitUsage, cli::read_input;

namespace {

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
  std::string docs_url;      // --docs-url; else the config's docs-url
  bool by_content = false;   // files given are skipped like files found in a folder
  BuildMacroOptions macros;  // -D, -U (with each input's config's defines)
};

// What the engine could not use: a tags file's own errors, then why.
void print_problems(const std::vector<engine::Problem>& problems) {
  for (const engine::Problem& problem : problems) {
    if (!problem.diagnostics.empty()) {
      diagnostics::SourceFiles sources;
      fmt::print(stderr, "{}",
                 diagnostics::render_text(problem.diagnostics, sources, {cli::stderr_color()}));
    }
    if (!problem.message.empty()) error(kCommand, "{}", problem.message);
  }
}

int show_config(const LintOptions& options) {
  config::ConfigProvider configs = config_provider(options.config_file);
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

// Each fixed file replaced whole (a temporary file beside it, then a rename), or with `diff_only`
// shown as a unified diff on stdout. False when a file could not be written (it is left as it
// was, and so is its text in `texts`).
bool write_fixes(const std::vector<std::string>& paths, const std::vector<std::string>& original,
                 std::vector<std::string>& texts, bool diff_only) {
  bool written = true;
  for (size_t i = 0; i < paths.size(); ++i) {
    if (texts[i] == original[i]) continue;
    if (diff_only) {
      fmt::print("{}", diagnostics::render_unified_diff(paths[i], original[i], texts[i]));
    } else if (cli::replace_file(paths[i], texts[i], /*keep_permissions=*/true)) {
      error(kCommand, "cannot write '{}'; it is left as it was", paths[i]);
      texts[i] = original[i];
      written = false;
    }
  }
  std::fflush(stdout);
  return written;
}

// Whether every id given to `option` names a rule (or is "all"); says which does not otherwise.
bool known_rules(const std::vector<std::string>& ids, std::string_view option) {
  const std::string why = engine::unknown_rule(ids);
  if (!why.empty()) error(kCommand, "{}: {}", option, why);
  return why.empty();
}

int run_lint(const LintOptions& options) {
  const lint::Profile profile =
      lint::parse_profile(options.profile).value_or(lint::Profile::automatic);
  if (options.list_rules) {
    fmt::print("{}", report::render_rule_profiles(engine::all_rules(), profile, options.format,
                                                  rule_help_from_docs(options.docs_url)));
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
  engine::Options lint_options;
  if (profile != lint::Profile::automatic) lint_options.profile = profile;
  if (options.torch_version_given) lint_options.torch_version = options.torch_version;
  if (!options.kind.empty()) lint_options.kind = lint::parse_file_kind(options.kind);
  lint_options.tags_file = options.tags_file;
  lint_options.command_line = {options.select, options.ignore};
  lint_options.macros = {options.macros.defines, options.macros.undefines};
  lint_options.read_tags = [](const std::string& path) {
    return read_input(kCommand, path, "tags file");
  };
  std::optional<native_functions::NativeFunctionsLoad>
      native;  // --native-functions, for backend YAMLs
  if (!options.native_functions_file.empty()) {
    std::optional<std::string> text =
        read_input(kCommand, options.native_functions_file, "native functions file");
    if (!text) return kExitUsage;
    native =
        native_functions::load_native_functions(options.native_functions_file, std::move(*text));
    lint_options.native_functions = &native->file;
  }
  bool io_error = false;
  ReportRun run;
  run.docs_url = options.docs_url;  // else the first input's config's docs-url
  engine::InputReading reading;
  reading.stdin_name = options.stdin_filename;
  reading.by_content = options.by_content;
  reading.read_named = [](const std::string& path, bool any_encoding) {
    return read_input(kCommand, path, "", any_encoding);
  };
  reading.read_stdin = [] { return std::string(std::istreambuf_iterator<char>(std::cin), {}); };
  reading.skipped = [&](const std::string& path, std::string_view why) {
    if (options.verbose) fmt::print(stderr, "{}: note: skipped '{}': {}\n", kCommand, path, why);
  };
  reading.error = [](const std::string& message) { error(kCommand, "{}", message); };
  reading.note = [](const std::string& message) {
    fmt::print(stderr, "{}: note: {}\n", kCommand, message);
  };
  engine::Inputs read = engine::read_inputs(options.files, reading);
  if (!read.unreadable.empty()) io_error = true;
  run.tool_errors = std::move(read.unreadable);
  const std::vector<diagnostics::RuleInfo> rules = engine::all_rules();
  config::ConfigProvider configs = config_provider(options.config_file);
  engine::Configured inputs =
      engine::configure(std::move(read.documents), &configs, lint_options.command_line);
  if (inputs.config_error) io_error = true;
  if (options.verbose) {
    for (const auto& [path, config_file] : inputs.excluded)
      fmt::print(stderr, "{}: note: skipped '{}': exclude: in {}\n", kCommand, path, config_file);
  }
  for (const config::Config& config : inputs.configs) {
    if (run.docs_url.empty()) run.docs_url = config.docs_url.value_or("");
  }
  std::vector<std::string> texts;
  for (const engine::Document& input : inputs.documents) texts.push_back(input.text);
  for (const engine::UncheckedCalls& file :
       options.verbose ? engine::unchecked_calls(inputs, lint_options.macros)
                       : std::vector<engine::UncheckedCalls>{}) {
    if (!file.problem.empty()) error(kCommand, "{}", file.problem);
    for (const sources::SkippedCall& call : file.calls)
      fmt::print(stderr, "{}:{}:{}: note: skipped: {}\n", file.path, call.position.line,
                 call.position.column, call.reason);
  }
  // Every finding for `current` texts, the baseline's excused ones dropped.
  std::optional<std::vector<diagnostics::BaselineEntry>> baseline;
  bool baseline_recorded = false;
  auto lint_all = [&](const std::vector<std::string>& current) {
    engine::Run lint = engine::lint(inputs, current, lint_options, baseline ? &*baseline : nullptr);
    print_problems(lint.problems);
    if (!lint.problems.empty()) io_error = true;
    return std::move(lint.diagnostics);
  };
  if (!options.baseline_file.empty()) {
    engine::BaselineFile file = engine::use_baseline(
        options.baseline_file, lint_all(texts), inputs, texts,
        [](const std::string& path) { return read_input(kCommand, path, "baseline"); });
    if (!file.problem.empty()) error(kCommand, "{}", file.problem);
    if (file.written)
      fmt::print(stderr, "{}: recorded {} finding{} in baseline '{}'\n", kCommand, file.recorded,
                 file.recorded == 1 ? "" : "s", options.baseline_file);
    if (!file.entries && !file.written) return kExitUsage;
    baseline = std::move(file.entries);
    baseline_recorded = file.written;
  }
  if (options.fix || options.diff) {
    std::vector<std::string> paths;
    for (const engine::Document& input : inputs.documents) paths.push_back(input.path);
    const std::vector<std::string> original = texts;
    diagnostics::FixRounds fixed = diagnostics::apply_fixes_in_rounds(paths, texts, lint_all);
    for (const diagnostics::SkippedFix& s : fixed.left_out) {
      const diagnostics::Location& at = s.diagnostic.location;
      fmt::print(stderr, "{}:{}:{}: note: fix for [{}] left out: {}\n", at.file, at.line, at.column,
                 s.diagnostic.rule, s.reason);
    }
    if (!write_fixes(paths, original, texts, options.diff)) io_error = true;
    if (options.diff) return io_error ? kExitUsage : fixed.fixed > 0 ? cli::kExitProblems : kExitOk;
    if (fixed.fixed > 0 || !fixed.left_out.empty()) {
      const size_t left = fixed.left_out.size();
      fmt::print(stderr, "{}: fixed {} problem{}{}\n", kCommand, fixed.fixed,
                 fixed.fixed == 1 ? "" : "s",
                 left > 0 ? fmt::format(", {} fix{} left out", left, left == 1 ? "" : "es") : "");
    }
  }
  std::vector<Diagnostic> diagnostics = baseline_recorded ? inputs.problems : lint_all(texts);
  diagnostics::SourceFiles sources;
  for (size_t i = 0; i < texts.size(); ++i) sources.add(inputs.documents[i].path, texts[i]);
  diagnostics::sort_diagnostics(diagnostics);
  diagnostics::DiagnosticCounts counts = diagnostics::count_diagnostics(diagnostics);
  if (size_t dropped =
          options.max_errors > 0 ? report::limit_errors(diagnostics, options.max_errors) : 0)
    fmt::print(stderr, "{}: note: stopped after {} errors (--max-errors); {} more not shown\n",
               kCommand, options.max_errors, dropped);
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
  cmd->add_flag("--by-content", options.by_content,
                "take the files given as a folder search finds them: skip those that are not "
                "operator files (YAML of another shape), generated or excluded (for hooks that "
                "pass every YAML, C++ and Python file)");
  cmd->add_option("--docs-url", options.docs_url, kDocsUrlHelp);
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
  return [options] {
    if (!checked_docs_url(kCommand, options->docs_url)) return kExitUsage;
    // --format applies to every mode or is refused.
    const bool text = options->format == "text";
    if (!text && (options->diff || options->show_config)) {
      error(kCommand, "--format {} does not apply to {}: it prints a {}", options->format,
            options->diff ? "--fix --diff" : "--show-config",
            options->diff ? "unified diff" : "configuration as YAML");
      return kExitUsage;
    }
    if ((options->list_rules || options->list_tags) && !text && options->format != "json") {
      error(kCommand, "--format {} does not apply to {}: use text or json", options->format,
            options->list_rules ? "--list-rules" : "--list-tags");
      return kExitUsage;
    }
    if (options->list_tags && options->format == "json") {
      nlohmann::json tags = nlohmann::json::array();
      for (std::string_view tag : torch_releases::builtin_tags(options->torch_version))
        tags.push_back(tag);
      fmt::print("{}\n", tags.dump(2));
      return kExitOk;
    }
    return run_lint(*options);
  };
}

}  // namespace schemac::tool
