// `-D NAME=VALUE` / `-DNAME` / `-U NAME`, shared by lint, parse --source and compat (the commands
// that read C++): the build's macros, merged with a `.schemac.yaml`'s `defines:` (the command
// line wins), for lib/sources' scanner (schemac/tokens/cpp_macros.h).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "schemac/config/config.h"
#include "schemac/tokens/cpp_macros.h"

namespace schemac::tool {

struct BuildMacroOptions {
  std::vector<std::string> defines;    // -D
  std::vector<std::string> undefines;  // -U
};

void add_build_macro_options(CLI::App* cmd, BuildMacroOptions& options);

// The macros a C++ input is read with: `config`'s defines (when given), then -D, then -U.
// Prints "COMMAND: error: ..." and returns nothing when a -D or a config value is malformed.
std::optional<tokens::MacroTable> build_macros(std::string_view command,
                                               const BuildMacroOptions& options,
                                               const config::Config* config = nullptr);

// The config of a C++ input for the commands that do not read configs otherwise (parse --source,
// compat): the nearest .schemac.yaml's, its other keys unused; an empty Config when none is found
// or it cannot be read (lint reports its problems).
config::Config nearest_config(const std::string& input);

}  // namespace schemac::tool
