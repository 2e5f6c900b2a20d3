#include "build_macros.h"

#include <vector>

#include "cli.h"
#include "config_files.h"
#include "input.h"
#include "schemac/lint/lint_rules.h"
#include "schemac/sources/lint.h"

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
  tokens::MacroTable table;
  if (config) {
    for (const auto& [name, value] : config->defines) {
      std::string why = table.define_from_text(name + "=" + value);
      if (!why.empty()) {
        cli::error(command, "{}: defines: '{}': {}", config->file, name, why);
        return std::nullopt;
      }
    }
  }
  for (const std::string& spec : options.defines) {
    std::string why = table.define_from_text(spec);
    if (!why.empty()) {
      cli::error(command, "-D '{}': {}", spec, why);
      return std::nullopt;
    }
  }
  for (const std::string& name : options.undefines) table.undefine(name);
  return table;
}

config::Config nearest_config(const std::string& input) {
  std::optional<std::filesystem::path> file = cli::find_config_file(input);
  if (!file) return {};
  std::optional<std::string> text = cli::read_file(*file);
  if (!text) return {};
  std::vector<diagnostics::RuleInfo> rules(lint::lint_rule_catalog().begin(),
                                           lint::lint_rule_catalog().end());
  for (const diagnostics::RuleInfo& rule : sources::source_rule_catalog()) rules.push_back(rule);
  return config::load_config(file->string(), std::move(*text), rules).config;
}

}  // namespace schemac::tool
