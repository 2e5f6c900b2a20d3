#include "shared_options.h"

#include <string>

#include <fmt/format.h>

#include "cli.h"

namespace schemac::tool {

std::optional<std::string> checked_docs_url(std::string_view command, const std::string& option) {
  if (option.empty() || config::is_url(option)) return option;
  cli::error(command, "--docs-url: '{}' is not a URL such as https://host/path/docs/", option);
  return std::nullopt;
}

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

void add_torch_version_option(CLI::App* cmd, torch_releases::TorchVersion& version, bool* given) {
  cmd->add_option_function<std::string>(
         "--torch-version",
         [&version, given](const std::string& text) {
           version = *torch_releases::parse_torch_version(text);
           if (given != nullptr) *given = true;
         },
         fmt::format(
             "the PyTorch release whose torchgen reads the files: its rules, dispatch keys and "
             "built-in tags ({}; default {})",
             torch_releases::known_torch_versions_text(),
             torch_releases::format_torch_version(torch_releases::kNewestTorchVersion)))
      ->check(torch_releases::unknown_torch_version, "X.Y");
}

}  // namespace schemac::tool
