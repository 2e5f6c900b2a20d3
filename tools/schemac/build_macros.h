// `-D NAME=VALUE` / `-DNAME` / `-U NAME`, shared by lint, parse --source and compat (the commands
// that read C++): the options, and their errors as the commands print them; lib/engine merges
// them with a `.schemac.yaml`'s `defines:` (macros_for).
#pragma once

#include <optional>
#include <string_view>

#include <CLI/CLI.hpp>

#include "schemac/config/config.h"
#include "schemac/engine/engine.h"
#include "schemac/tokens/cpp_macros.h"

namespace schemac::tool {

using BuildMacroOptions = engine::BuildMacros;

void add_build_macro_options(CLI::App* cmd, BuildMacroOptions& options);

// The macros a C++ input is read with: `config`'s defines (when given), then -D, then -U.
// Prints "COMMAND: error: ..." and returns nothing when a -D or a config value is malformed.
std::optional<tokens::MacroTable> build_macros(std::string_view command,
                                               const BuildMacroOptions& options,
                                               const config::Config* config = nullptr);

}  // namespace schemac::tool
