#include "build_macros.h"

#include "cli.h"

namespace schemac::tool {

void add_build_macro_options(CLI::App* cmd, BuildMacroOptions& options) {
  cmd->add_option("-D,--define", options.defines,
                  "a build macro for C++ inputs, as the compiler gets it: NAME=VALUE, NAME (1) or "
                  "NAME(ARGS)=BODY; it names TORCH_LIBRARY namespaces (-D TORCH_EXTENSION_NAME=_C) "
                  "and decides #if/#ifdef branches")
      ->allow_extra_args(false);
  cmd->add_option("-U,--undefine", options.undefines,
                  "a macro known NOT to be defined: #ifdef NAME branches are left out (a name "
                  "neither defined nor undefined decides nothing: both branches count)")
      ->allow_extra_args(false);
}

std::optional<tokens::MacroTable> build_macros(std::string_view command,
                                               const BuildMacroOptions& options,
                                               const config::Config* config) {
  std::string why;
  std::optional<tokens::MacroTable> table =
      engine::macros_for(config ? *config : config::Config{}, options, why);
  if (!table) cli::error(command, "{}", why);
  return table;
}

}  // namespace schemac::tool
