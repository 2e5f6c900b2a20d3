// Finding and reading the .schemac.yaml of each input (lib/config reads the text): the nearest
// one in the input's folder or a folder above, or the one --config names. Loaded files are
// cached by path, so a folder of inputs reads its config once. `schemac lint` and `schemac lsp`
// share this.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "schemac/config/config.h"

namespace schemac::cli {

inline constexpr const char* kConfigFileName = ".schemac.yaml";

// The nearest .schemac.yaml at or above the folder of `input` (a file or folder), or nullopt.
std::optional<std::filesystem::path> find_config_file(const std::filesystem::path& input);

class ConfigFiles {
 public:
  // `forced`: the --config file, used for every input; empty: each input's nearest one.
  ConfigFiles(std::string forced, std::span<const diagnostics::RuleInfo> known_rules);

  // The config for `input` (an empty Config when none is found), or nullptr when the file could
  // not be read or has errors; `diagnostics` then holds why (rule `config`, or a tool-level
  // error without a file).
  const config::Config* for_input(const std::string& input,
                                  std::vector<diagnostics::Diagnostic>& diagnostics);

 private:
  const config::Config* load(const std::filesystem::path& path,
                             std::vector<diagnostics::Diagnostic>& diagnostics);

  std::string forced_;
  std::vector<diagnostics::RuleInfo> known_rules_;
  std::map<std::string, std::optional<config::Config>> loaded_;  // by path; nullopt: unusable
  config::Config none_;
};

}  // namespace schemac::cli
