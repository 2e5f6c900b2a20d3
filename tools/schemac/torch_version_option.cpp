#include "torch_version_option.h"

#include <string>

#include <fmt/format.h>

namespace schemac::tool {

void add_torch_version_option(CLI::App* cmd, lint::TorchVersion& version, bool* given) {
  cmd->add_option_function<std::string>(
         "--torch-version",
         [&version, given](const std::string& text) {
           version = *lint::parse_torch_version(text);
           if (given != nullptr) *given = true;
         },
         fmt::format("the PyTorch release whose torchgen reads the files: its rules, dispatch keys and "
                     "built-in tags ({}; default {})",
                     lint::known_torch_versions_text(), lint::format_torch_version(lint::kNewestTorchVersion)))
      ->check(
          [](const std::string& text) -> std::string {
            if (lint::parse_torch_version(text)) return "";
            return fmt::format("unknown PyTorch release '{}'; known: {}", text, lint::known_torch_versions_text());
          },
          "X.Y");
}

}  // namespace schemac::tool
