// The gate of `schemac gen` (checked_model.h).
#include "schemac/generate/checked_model.h"

#include <algorithm>

#include <fmt/format.h>

#include "schemac/rules/rules.h"
#include "schemac/support/parallel.h"

namespace schemac::generate {

using codegen::GenInput, codegen::GenOptions, codegen::ModelBuild, codegen::Target,
    codegen::UnwrittenOperator;

namespace {

// The inputs as the engine's documents: linted as they were loaded (the loader's findings are
// the caller's when it gives none).
engine::Configured configured_inputs(const std::vector<GenInput>& inputs, const GateOptions& gate) {
  std::vector<engine::Document> documents;
  for (const GenInput& input : inputs) {
    engine::Document document(input.file->document.file, input.file->document.text);
    document.loaded = input.file;
    if (input.load_diagnostics) document.loader_diagnostics = *input.load_diagnostics;
    documents.push_back(std::move(document));
  }
  return engine::configure(std::move(documents), gate.configs, gate.lint.command_line);
}

// The lint options of the gate: gen registers its own kernels (torchgen's code-generation rules
// do not apply), reads native-functions files, and judges the suppressions of its targets' rules
// (lint judges its own).
engine::Options gate_options(const GateOptions& gate) {
  engine::Options options = gate.lint;
  options.torchgen_codegen = false;
  options.kind = lint::FileKind::native;
  options.suppressions_judged = {rules::Family::gen};
  return options;
}

// Whether an error of `diagnostics` sits in the entry of `file` (its text) that starts at `line`.
bool error_in_entry(const std::vector<diagnostics::Diagnostic>& diagnostics,
                    const std::string& file, const std::string& text, uint32_t line) {
  const diagnostics::EntryFirstLine entry = diagnostics::yaml_entry_first_line(text);
  return std::any_of(diagnostics.begin(), diagnostics.end(), [&](const diagnostics::Diagnostic& d) {
    return d.severity == diagnostics::Severity::error && d.location.file == file &&
           d.location.line > 0 && entry(d.location.line) == entry(line);
  });
}

}  // namespace

ModelBuild build_checked_gen_model(const std::vector<GenInput>& inputs, const GateOptions& gate,
                                   const Target& target, const GenOptions& options) {
  const engine::Options lint_options = gate_options(gate);
  const engine::Configured configured = configured_inputs(inputs, gate);
  std::vector<std::string> texts;
  for (const engine::Document& document : configured.documents) texts.push_back(document.text);
  engine::Findings findings;
  ModelBuild build;
  support::run_tasks(2, [&](size_t task) {
    if (task == 0) findings = engine::find(configured, texts, lint_options);
    if (task == 1) build = build_gen_model(inputs, options.umbrella_namespace);
  });
  // The target's checks are findings like lint's: suppressed, configured and decided with them.
  for (diagnostics::Diagnostic& d : target.check(build.model, options))
    engine::add_finding(findings, configured, std::move(d));
  engine::Run run = engine::settle(configured, texts, std::move(findings), lint_options);
  build.diagnostics = std::move(run.diagnostics);
  for (engine::Problem& problem : run.problems) {
    for (diagnostics::Diagnostic& d : problem.diagnostics)
      build.diagnostics.push_back(std::move(d));
    build.diagnostics.push_back(
        {diagnostics::Severity::error, rules::config, {}, std::move(problem.message), {}, {}});
  }
  // What the model cannot hold is an error, unless lint's findings have one there already: an
  // operator lint accepts is never left out in silence.
  for (UnwrittenOperator& unwritten : build.unwritten) {
    const std::string& file = unwritten.location.file;
    auto input = std::find_if(inputs.begin(), inputs.end(),
                              [&](const GenInput& in) { return in.file->document.file == file; });
    if (input != inputs.end() && error_in_entry(build.diagnostics, file, input->file->document.text,
                                                unwritten.location.line))
      continue;
    build.diagnostics.push_back(
        {diagnostics::Severity::error,
         rules::unusable_schema,
         unwritten.location,
         fmt::format("operator '{}' cannot be generated: {}", unwritten.name, unwritten.why),
         std::move(unwritten.notes),
         {}});
  }
  return build;
}

}  // namespace schemac::generate
