// The gate of `schemac gen` (checked_model.h).
#include "schemac/codegen/checked_model.h"

#include <algorithm>

#include "schemac/support/parallel.h"

namespace schemac::codegen {

namespace {

bool same_finding(const diagnostics::Diagnostic& a, const diagnostics::Diagnostic& b) {
  return a.rule == b.rule && a.location.file == b.location.file &&
         a.location.line == b.location.line && a.location.column == b.location.column;
}

// The engine's findings for the inputs: those of rules over the files (the loader's are the
// caller's when it gives none).
std::vector<diagnostics::Diagnostic> lint_inputs(const std::vector<GenInput>& inputs,
                                                 const GateOptions& gate) {
  engine::Options options = gate.lint;
  options.torchgen_codegen = false;
  options.kind = lint::FileKind::native;
  std::vector<engine::Document> documents;
  for (const GenInput& input : inputs) {
    engine::Document document(input.file->document.file, input.file->document.text);
    document.loaded = input.file;
    if (input.load_diagnostics) document.loader_diagnostics = *input.load_diagnostics;
    documents.push_back(std::move(document));
  }
  return engine::lint(std::move(documents), gate.configs, options).diagnostics;
}

}  // namespace

ModelBuild build_checked_gen_model(const std::vector<GenInput>& inputs, const GateOptions& gate,
                                   const Target& target, const GenOptions& options) {
  std::vector<diagnostics::Diagnostic> lint;
  ModelBuild build;
  support::run_tasks(2, [&](size_t task) {
    if (task == 0) lint = lint_inputs(inputs, gate);
    if (task == 1) build = build_gen_model(inputs, options.umbrella_namespace);
  });
  std::erase_if(build.diagnostics, [&](const diagnostics::Diagnostic& d) {
    return std::any_of(lint.begin(), lint.end(),
                       [&](const diagnostics::Diagnostic& l) { return same_finding(l, d); });
  });
  for (diagnostics::Diagnostic& d : target.check(build.model, options))
    build.diagnostics.push_back(std::move(d));
  lint.insert(lint.end(), std::make_move_iterator(build.diagnostics.begin()),
              std::make_move_iterator(build.diagnostics.end()));
  build.diagnostics = std::move(lint);
  return build;
}

}  // namespace schemac::codegen
