#include "torch_version_option.h"

#include <string>

#include <fmt/format.h>

namespace schemac::tool {

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
