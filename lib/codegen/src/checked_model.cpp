// The gate of `schemac gen` (checked_model.h).
#include "schemac/codegen/checked_model.h"

#include <algorithm>

#include "schemac/lint/lint_inputs.h"
#include "schemac/support/parallel.h"

namespace schemac::codegen {

namespace {

bool same_finding(const diagnostics::Diagnostic& a, const diagnostics::Diagnostic& b) {
  return a.rule == b.rule && a.location.file == b.location.file &&
         a.location.line == b.location.line && a.location.column == b.location.column;
}

}  // namespace

ModelBuild build_checked_gen_model(const std::vector<GenInput>& inputs,
                                   lint::LintOptions lint_options, const Target& target,
                                   const GenOptions& options) {
  lint_options.torchgen_codegen = false;
  std::vector<const native_functions::NativeFunctionsFile*> files;
  for (const GenInput& input : inputs) files.push_back(input.file);
  std::vector<diagnostics::Diagnostic> lint;
  ModelBuild build;
  support::run_tasks(2, [&](size_t task) {
    if (task == 0) lint = lint::check_native_functions_files(files, lint_options);
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
