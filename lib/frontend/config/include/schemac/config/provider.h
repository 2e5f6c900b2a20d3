// Finding and reading the .schemac.yaml of each path (load_config reads the text): the nearest
// one in the path's folder or a folder above, or the one --config names. Loaded files are cached
// by path, so a folder of inputs reads its config once. Every door that lints (lint, gen, parse
// --source, compat, the language server) asks one provider (lib/frontend/engine).
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "schemac/config/config.h"

namespace schemac::config {

inline constexpr const char* kConfigFileName = ".schemac.yaml";

// The nearest .schemac.yaml at or above the folder of `input` (a file or folder), or nullopt.
std::optional<std::filesystem::path> find_config_file(const std::filesystem::path& input);

// Reads a config file's text; on failure returns nothing and says why ("no such file, ...").
// The tools pass theirs (which also rejects binary and non-UTF-8 text); the default reads bytes.
using ReadText =
    std::function<std::optional<std::string>(const std::filesystem::path& path, std::string& why)>;

class ConfigProvider {
 public:
  // `forced`: the --config file, used for every input; empty: each input's nearest one.
  explicit ConfigProvider(std::string forced = "", ReadText read = {});

  // The config for `input` (an empty Config when none is found), or nullptr when the file could
  // not be read or has errors; `diagnostics` then holds why (rule `config`, or a tool-level
  // error without a file).
  const Config* for_input(const std::string& input,
                          std::vector<diagnostics::Diagnostic>& diagnostics);

  // Forgets every file read, so that the next for_input reads them again (the editor, when a
  // .schemac.yaml changes on disk).
  void forget() { loaded_.clear(); }

 private:
  const Config* load(const std::filesystem::path& path,
                     std::vector<diagnostics::Diagnostic>& diagnostics);

  std::string forced_;
  ReadText read_;
  std::map<std::string, std::optional<Config>> loaded_;  // by path; nullopt: unusable
  Config none_;
};

}  // namespace schemac::config
