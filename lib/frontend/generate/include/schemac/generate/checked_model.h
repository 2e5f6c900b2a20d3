// The one gate of `schemac gen`: everything checked before a file is written, for every caller
// (the CLI, adoption, the benchmarks, the fuzz target). It belongs to generation, not to the
// emitters: lib/frontend/codegen's targets write what the gate has let through.
#pragma once

#include <vector>

#include "schemac/codegen/gen_model.h"
#include "schemac/codegen/target.h"
#include "schemac/config/provider.h"
#include "schemac/engine/engine.h"

namespace schemac::generate {

// What the gate lints with: the lint engine's options (--profile, the target's default profile,
// release, --select/--ignore) and each input's .schemac.yaml (null: none), as `schemac lint`
// would.
struct GateOptions {
  engine::Options lint;
  config::ConfigProvider* configs = nullptr;
};

// The model of `inputs` and every diagnostic that stops gen: what `schemac lint` reports for the
// inputs (lib/frontend/engine: each file's rules with its config's release, profile and tags,
// duplicates across files; torchgen's code-generation constraints are off, since gen registers
// its own kernels) and `target`'s checks, all of them through the same suppression comments and
// config (select/ignore/severity/per-path, profile: --profile, else the config's, else the
// target's); then an `unusable-schema` error for each entry the model cannot hold (a schema that
// does not parse, an operator defined again) where no error is reported already: what lint
// accepts, gen writes or says why not. An input whose `load_diagnostics` are given has them
// linted too (the caller reports them otherwise). The lint and the model only read the inputs,
// so they run on two threads. Operators written without a namespace get
// `options.umbrella_namespace`.
codegen::ModelBuild build_checked_gen_model(const std::vector<codegen::GenInput>& inputs,
                                            const GateOptions& gate, const codegen::Target& target,
                                            const codegen::GenOptions& options);

}  // namespace schemac::generate
