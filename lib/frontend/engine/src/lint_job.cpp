// A lint run from arguments to sorted findings (lint_job.h), in the order `schemac lint` runs it.
#include "schemac/engine/lint_job.h"

#include <algorithm>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "schemac/config/provider.h"
#include "schemac/engine/baseline_file.h"
#include "schemac/engine/documents.h"
#include "schemac/inputs/text.h"
#include "schemac/presentation/presentation.h"

namespace schemac::engine {
namespace {

// Calls `hook` with `args` when it is set.
template <typename Hook, typename... Args>
void tell(const Hook& hook, Args&&... args) {
  if (hook) hook(std::forward<Args>(args)...);
}

std::optional<std::string> read_text(const LintJob& job, const std::string& path,
                                     std::string_view what, bool any_encoding = false) {
  if (job.read) return job.read(path, what, any_encoding);
  return inputs::read_text_file(path, any_encoding);
}

Inputs read_arguments(const LintJob& job) {
  InputReading reading;
  reading.stdin_name = job.stdin_name;
  reading.by_content = job.by_content;
  if (job.read) {
    reading.read_named = [&job](const std::string& path, bool any_encoding) {
      return job.read(path, "", any_encoding);
    };
  }
  reading.read_stdin = job.read_stdin;
  reading.skipped = [&job](const std::string& path, std::string_view why) {
    if (job.verbose) tell(job.sink.note, fmt::format("skipped '{}': {}", path, why));
  };
  reading.error = job.sink.error;
  reading.note = job.sink.note;
  return read_inputs(job.files, reading);
}

// --verbose: the registration calls lint cannot check, and why a document's macros are unusable.
void tell_unchecked_calls(const LintJob& job, const Configured& inputs) {
  for (const UncheckedCalls& file : unchecked_calls(inputs, job.options.macros)) {
    if (!file.problem.empty()) tell(job.sink.error, file.problem);
    for (const sources::SkippedCall& call : file.calls) {
      tell(job.sink.note_at,
           fmt::format("{}:{}:{}", file.path, call.position.line, call.position.column),
           fmt::format("skipped: {}", call.reason));
    }
  }
}

// Each fixed file handed to `job.write`, or with `job.diff` to the sink as a unified diff. False
// when a file could not be written (its text in `texts` is then the original again).
bool write_fixes(const LintJob& job, const std::vector<std::string>& paths,
                 const std::vector<std::string>& original, std::vector<std::string>& texts) {
  bool written = true;
  for (size_t i = 0; i < paths.size(); ++i) {
    if (texts[i] == original[i]) continue;
    if (job.diff) {
      tell(job.sink.diff, diagnostics::render_unified_diff(paths[i], original[i], texts[i]));
    } else if (job.write && !job.write(paths[i], texts[i])) {
      tell(job.sink.error, fmt::format("cannot write '{}'; it is left as it was", paths[i]));
      texts[i] = original[i];
      written = false;
    }
  }
  return written;
}

std::string plural(size_t count, std::string_view one, std::string_view many) {
  return fmt::format("{} {}", count, count == 1 ? one : many);
}

}  // namespace

LintResult run_lint_job(const LintJob& job) {
  LintResult result;
  Options options = job.options;
  if (!options.read_tags && job.read) {
    options.read_tags = [&job](const std::string& path) {
      return job.read(path, "tags file", false);
    };
  }
  std::optional<native_functions::NativeFunctionsLoad> native;  // kept alive for `options`
  if (!job.native_functions_file.empty()) {
    std::optional<std::string> text =
        read_text(job, job.native_functions_file, "native functions file");
    if (!text) {
      result.finished = false;
      return result;
    }
    native = native_functions::load_native_functions(job.native_functions_file, std::move(*text));
    options.native_functions = &native->file;
  }
  Inputs read = read_arguments(job);
  if (!read.unreadable.empty()) result.io_error = true;
  result.unreadable = std::move(read.unreadable);
  config::ConfigProvider configs = config_provider(job.config_file);
  Configured inputs = configure(std::move(read.documents), &configs, options.command_line);
  if (inputs.config_error) result.io_error = true;
  if (job.verbose) {
    for (const auto& [path, config_file] : inputs.excluded)
      tell(job.sink.note, fmt::format("skipped '{}': exclude: in {}", path, config_file));
  }
  for (const config::Config& config : inputs.configs) {
    if (result.docs_url.empty()) result.docs_url = config.docs_url.value_or("");
  }
  std::vector<std::string> texts;
  for (const Document& input : inputs.documents) texts.push_back(input.text);
  if (job.verbose) tell_unchecked_calls(job, inputs);
  // Every finding for `current` texts, the baseline's excused ones dropped.
  std::optional<std::vector<diagnostics::BaselineEntry>> baseline;
  auto lint_all = [&](const std::vector<std::string>& current) {
    Run run = lint(inputs, current, options, baseline ? &*baseline : nullptr);
    result.tally = run.tally;
    for (const Problem& problem : run.problems) tell(job.sink.problem, problem);
    if (!run.problems.empty()) result.io_error = true;
    result.files = static_cast<size_t>(std::count(run.linted.begin(), run.linted.end(), true));
    result.schemas = run.schemas;
    return std::move(run.diagnostics);
  };
  if (!job.baseline_file.empty()) {
    BaselineFile file =
        use_baseline(job.baseline_file, lint_all(texts), inputs, texts,
                     [&job](const std::string& path) { return read_text(job, path, "baseline"); });
    if (!file.problem.empty()) tell(job.sink.error, file.problem);
    if (file.written) {
      tell(job.sink.done,
           fmt::format("recorded {} in baseline '{}'", plural(file.recorded, "finding", "findings"),
                       job.baseline_file));
      result.baseline_recorded = file.recorded;
    }
    if (!file.entries && !file.written) {
      result.finished = false;
      return result;
    }
    baseline = std::move(file.entries);
  }
  if (job.fix || job.diff) {
    std::vector<std::string> paths;
    for (const Document& input : inputs.documents) paths.push_back(input.path);
    const std::vector<std::string> original = texts;
    diagnostics::FixRounds fixed = diagnostics::apply_fixes_in_rounds(paths, texts, lint_all);
    for (const diagnostics::SkippedFix& s : fixed.left_out) {
      const diagnostics::Location& at = s.diagnostic.location;
      tell(job.sink.note_at, fmt::format("{}:{}:{}", at.file, at.line, at.column),
           fmt::format("fix for [{}] left out: {}", s.diagnostic.rule, s.reason));
    }
    if (!write_fixes(job, paths, original, texts)) result.io_error = true;
    result.fixed = fixed.fixed;
    result.fixes_left_out = std::move(fixed.left_out);
    if (job.diff) return result;
    if (result.fixed > 0 || !result.fixes_left_out.empty()) {
      const size_t left = result.fixes_left_out.size();
      tell(job.sink.done,
           fmt::format("fixed {}{}", plural(result.fixed, "problem", "problems"),
                       left > 0 ? fmt::format(", {} left out", plural(left, "fix", "fixes")) : ""));
    }
  }
  result.diagnostics = result.baseline_recorded ? inputs.problems : lint_all(texts);
  for (size_t i = 0; i < texts.size(); ++i) result.sources.add(inputs.documents[i].path, texts[i]);
  diagnostics::sort_diagnostics(result.diagnostics);
  result.counts = diagnostics::count_diagnostics(result.diagnostics);
  if (job.max_errors > 0)
    result.errors_cut = presentation::limit_errors(result.diagnostics, job.max_errors);
  if (result.errors_cut > 0) {
    tell(job.sink.note, fmt::format("stopped after {} errors (--max-errors); {} more not shown",
                                    job.max_errors, result.errors_cut));
  }
  return result;
}

ConfigListing list_configs(const LintJob& job) {
  ConfigListing listing;
  config::ConfigProvider configs = config_provider(job.config_file);
  const std::vector<std::string> inputs =
      job.files.empty() ? std::vector<std::string>{"."} : job.files;
  for (const std::string& input : inputs) {
    const config::Config* config =
        configs.for_input(input == "-" ? job.stdin_name : input, listing.problems);
    if (config == nullptr) continue;
    if (inputs.size() > 1) listing.text += fmt::format("# for: {}\n", input);
    listing.text +=
        config::render_config(config::merge_command_line(*config, job.options.command_line));
  }
  return listing;
}

std::string lint_job_problem(const LintJob& job) {
  const config::CommandLineRules& rules = job.options.command_line;
  if (std::string why = unknown_rule(rules.select); !why.empty()) return "--select: " + why;
  if (std::string why = unknown_rule(rules.ignore); !why.empty()) return "--ignore: " + why;
  if (std::string why; !macros_for(config::Config{}, job.options.macros, why)) return why;
  const bool reads_stdin = std::find(job.files.begin(), job.files.end(), "-") != job.files.end();
  if (job.fix && !job.diff && reads_stdin) return "--fix cannot rewrite stdin; use --fix --diff";
  return "";
}

}  // namespace schemac::engine
