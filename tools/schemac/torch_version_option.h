// `--torch-version X.Y`, shared by lint and gen: the PyTorch release whose torchgen rules apply.
#pragma once

#include <CLI/CLI.hpp>

#include "schemac/torch_releases/torch_release.h"

namespace schemac::tool {

// Adds the option to `cmd`; a release lint does not know is a usage error that lists the known
// ones. `given`, when not null, is set once the option is written (a .schemac.yaml's torch-version
// then yields to it).
void add_torch_version_option(CLI::App* cmd, torch_releases::TorchVersion& version,
                              bool* given = nullptr);

}  // namespace schemac::tool
