// `schemac lint [--format text|json|sarif|github] [--werror] [--tags FILE] [--kind KIND]
// [--profile P] [--torch-version X.Y] [--list-rules] [--fix [--diff]] [--config FILE] [--select/
// --ignore RULE,...] [--baseline FILE] [--max-errors N] [-q] FILE|DIR|-...`: checks operator YAML
// files (recognised by shape: docs/releases.md) and the schemas in C++ and Python registration
// code, then the rules across all the files given, and reports every problem with its rule id on
// stdout (what was checked on stderr). This command binds options and prints; the run itself is
// engine/lint_job.h (inputs, configs, release, suppressions, baseline, --fix's rounds), the one
// engine `schemac lsp` and `gen` ask too; lib/frontend/presentation renders each --format. Exit 0
// clean, 1 on errors (or warnings with --werror), 2 on usage or I/O errors.
#include <cstdio>
#include <iostream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli.h"
#include "commands.h"
#include "file_output.h"
#include "input.h"
#include "schemac/diagnostics/diagnostic.h"
#include "schemac/engine/engine.h"
#include "schemac/engine/lint_job.h"
#include "schemac/lint/file_kinds.h"
#include "schemac/lint/lint_rules.h"
#include "schemac/presentation/presentation.h"
#include "schemac/sources/tally.h"
#include "shared_options.h"

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
  std::string kind;                   // empty: recognised by shape
  std::string profile = "automatic";  // or in-tree / extension: forced for every operator
  torch_releases::TorchVersion torch_version = torch_releases::kNewestTorchVersion;
  bool torch_version_given = false;  // else each input's .schemac.yaml may name one
  bool show_config = false;
  bool quiet = false;    // --quiet: nothing on success
  std::string docs_url;  // --docs-url; else the config's docs-url
  // The files, --tags, --native-functions, --verbose, -D / -U and the daily loop (fixing,
  // configuration, selection, baseline, stdin) are bound straight into the run.
  engine::LintJob job;
};

// Diagnostics that are not the report: an unusable config's, or a tags file's own.
void print_on_stderr(const std::vector<Diagnostic>& diagnostics) {
  diagnostics::SourceFiles none;
  fmt::print(stderr, "{}", diagnostics::render_text(diagnostics, none, {cli::stderr_color()}));
}

// Where the run's messages go: "schemac lint: ..." lines on stderr; a diff on stdout.
engine::LintSink printing_sink() {
  engine::LintSink sink;
  sink.error = [](const std::string& message) { error(kCommand, "{}", message); };
  sink.note = [](const std::string& message) {
    fmt::print(stderr, "{}: note: {}\n", kCommand, message);
  };
  sink.done = [](const std::string& message) { fmt::print(stderr, "{}: {}\n", kCommand, message); };
  sink.note_at = [](const std::string& place, const std::string& message) {
    fmt::print(stderr, "{}: note: {}\n", place, message);
  };
  // What the engine could not use: a tags file's own errors, then why.
  sink.problem = [](const engine::Problem& problem) {
    if (!problem.diagnostics.empty()) print_on_stderr(problem.diagnostics);
    if (!problem.message.empty()) error(kCommand, "{}", problem.message);
  };
  sink.diff = [](const std::string& diff) {
    fmt::print("{}", diff);
    std::fflush(stdout);
  };
  return sink;
}

int show_config(const engine::LintJob& job) {
  const engine::ConfigListing listing = engine::list_configs(job);
  fmt::print("{}", listing.text);
  if (listing.problems.empty()) return kExitOk;
  print_on_stderr(listing.problems);
  return kExitUsage;
}

int run_lint(LintOptions& options) {
  const auto profile = lint::parse_profile(options.profile).value_or(lint::Profile::automatic);
  if (options.list_rules) {
    fmt::print("{}",
               presentation::render_rule_profiles(engine::lint_rules(), profile, options.format,
                                                  presentation::rule_help(options.docs_url)));
    return kExitOk;
  }
  if (options.list_tags) {
    for (std::string_view tag : torch_releases::builtin_tags(options.torch_version))
      fmt::print("{}\n", tag);
    return kExitOk;
  }
  engine::LintJob& job = options.job;
  if (options.show_config) return show_config(job);
  if (job.files.empty()) {
    error(kCommand, "no input files (see 'schemac lint --help')");
    return kExitUsage;
  }
  if (std::string why = engine::lint_job_problem(job); !why.empty()) {
    error(kCommand, "{}", why);
    return kExitUsage;
  }
  if (profile != lint::Profile::automatic) job.options.profile = profile;
  if (options.torch_version_given) job.options.torch_version = options.torch_version;
  if (!options.kind.empty()) job.options.kind = lint::parse_file_kind(options.kind);
  job.read = [](const std::string& path, std::string_view what, bool any_encoding) {
    return read_input(kCommand, path, what, any_encoding);
  };
  job.read_stdin = [] { return std::string(std::istreambuf_iterator<char>(std::cin), {}); };
  job.write = [](const std::string& path, const std::string& text) {
    return !cli::replace_file(path, text, /*keep_permissions=*/true);
  };
  job.sink = printing_sink();
  engine::LintResult result = engine::run_lint_job(job);
  if (!result.finished) return kExitUsage;
  if (job.diff)
    return result.io_error ? kExitUsage : result.fixed > 0 ? cli::kExitProblems : kExitOk;
  const presentation::Run run{std::move(result.unreadable),
                              options.docs_url.empty() ? result.docs_url : options.docs_url};
  fmt::print("{}", presentation::render_report(
                       result.diagnostics, result.sources, options.format, engine::lint_rules(),
                       run, presentation::rule_help(run.docs_url), cli::stdout_color()));
  std::fflush(stdout);
  if (options.format == "text" && !result.diagnostics.empty())
    fmt::print("{}", lint::render_rule_counts(result.diagnostics));
  const bool clean = result.diagnostics.empty() && !result.baseline_recorded;
  const std::string code = result.tally.files > 0 ? sources::tally_line(result.tally) : "";
  if (!result.io_error && !options.quiet)  // on stderr: stdout is the findings'
    fmt::print(stderr, "{}",
               presentation::render_checked(result.files, result.schemas, clean, code));
  if (result.io_error) return kExitUsage;
  const diagnostics::DiagnosticCounts& counts = result.counts;
  if (counts.errors > 0 || (options.werror && counts.warnings > 0)) return cli::kExitProblems;
  return kExitOk;
}

void add_daily_loop_options(CLI::App* cmd, LintOptions& options) {
  engine::LintJob& job = options.job;
  cmd->add_flag("--fix", job.fix,
                "apply every safe fix-it in place (atomically; every other byte is kept)");
  cmd->add_flag("--diff", job.diff,
                "with --fix: print the fixes as a unified diff and write nothing");
  cmd->add_option(
      "--stdin-filename", job.stdin_name,
      "the name of the file read from stdin ('-'): in messages, and to choose how it is read");
  cmd->add_option("--config", job.config_file,
                  "the .schemac.yaml to use (default: the nearest one above each input)");
  cmd->add_flag("--show-config", options.show_config,
                "print the configuration that applies (merged with the command line) and exit");
  cmd->add_option("--select", job.options.command_line.select,
                  "report only these rules (comma-separated ids)")
      ->delimiter(',');
  cmd->add_option("--ignore", job.options.command_line.ignore,
                  "never report these rules (comma-separated ids)")
      ->delimiter(',');
  cmd->add_option("--max-errors", job.max_errors,
                  "show at most N errors (the exit code still counts all)");
  cmd->add_flag("--by-content", job.by_content,
                "take the files given as a folder search finds them: skip those that are not "
                "operator files (YAML of another shape), generated or excluded (for hooks that "
                "pass every YAML, C++ and Python file)");
  cmd->add_option("--docs-url", options.docs_url, kDocsUrlHelp);
  cmd->add_option(
      "--baseline", job.baseline_file,
      "a baseline file: when it does not exist, today's findings are recorded in it; when it does, "
      "only findings it does not record are reported");
}

}  // namespace

std::function<int()> bind_lint_command(CLI::App* cmd) {
  auto options = std::make_shared<LintOptions>();
  cmd->add_option(
      "files", options->job.files,
      "native_functions.yaml, backend or executorch kernel YAML files, and C++ (.cpp .cc "
      ".cxx .cu .h .hpp .cuh) or Python (.py) files whose TORCH_LIBRARY blocks and "
      "torch.library calls define operators");
  cli::add_format_option(cmd, options->format, {"text", "json", "sarif", "github"},
                         kReportFormatHelp);
  cmd->add_flag("--werror", options->werror, "treat warnings as errors (exit 1 when any is found)");
  cmd->add_flag("-q,--quiet", options->quiet,
                "on success print nothing (not even what was checked, on stderr)");
  cmd->add_option("--tags", options->job.options.tags_file,
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
  cmd->add_flag("--verbose", options->job.verbose,
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
  cmd->add_option("--native-functions", options->job.native_functions_file,
                  "the native_functions.yaml whose operators a backend YAML's lists must name");
  add_daily_loop_options(cmd, *options);
  add_build_macro_options(cmd, options->job.options.macros);
  return [options] {
    if (!checked_docs_url(kCommand, options->docs_url)) return kExitUsage;
    // --format applies to every mode or is refused.
    const bool text = options->format == "text";
    if (!text && (options->job.diff || options->show_config)) {
      error(kCommand, "--format {} does not apply to {}: it prints a {}", options->format,
            options->job.diff ? "--fix --diff" : "--show-config",
            options->job.diff ? "unified diff" : "configuration as YAML");
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
