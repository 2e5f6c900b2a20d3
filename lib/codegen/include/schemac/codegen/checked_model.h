// The one gate of `schemac gen`: everything checked before a file is written, for every caller
// (the CLI, the benchmarks, the fuzz target).
#pragma once

#include <vector>

#include "schemac/codegen/gen_model.h"
#include "schemac/codegen/target.h"
#include "schemac/lint/lint_rules.h"

namespace schemac::codegen {

// The model of `inputs` and every diagnostic that stops gen: the lint rules over the inputs
// (lint::check_native_functions_files, duplicates across files included; torchgen's
// code-generation constraints are off, since gen registers its own kernels), the model's own
// diagnostics (a duplicate operator both find is reported once), and `target`'s checks. The rules
// and the model only read the inputs, so they run on two threads. Operators written without a
// namespace get `options.umbrella_namespace`.
ModelBuild build_checked_gen_model(const std::vector<GenInput>& inputs,
                                   lint::LintOptions lint_options, const Target& target,
                                   const GenOptions& options);

}  // namespace schemac::codegen
