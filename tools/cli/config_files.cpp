#include "config_files.h"

#include <fmt/format.h>

#include "input.h"
#include "schemac/rules/rules.h"

namespace schemac::cli {

namespace fs = std::filesystem;

std::optional<fs::path> find_config_file(const fs::path& input) {
  std::error_code ec;
  fs::path folder = fs::absolute(input, ec);
  if (ec) return std::nullopt;
  if (!fs::is_directory(folder, ec)) folder = folder.parent_path();
  for (fs::path at = folder;; at = at.parent_path()) {
    fs::path candidate = at / kConfigFileName;
    if (fs::is_regular_file(candidate, ec)) return candidate;
    if (at == at.parent_path()) return std::nullopt;
  }
}

ConfigFiles::ConfigFiles(std::string forced, std::span<const diagnostics::RuleInfo> known_rules)
    : forced_(std::move(forced)), known_rules_(known_rules.begin(), known_rules.end()) {}

const config::Config* ConfigFiles::for_input(const std::string& input,
                                             std::vector<diagnostics::Diagnostic>& diagnostics) {
  if (!forced_.empty()) return load(forced_, diagnostics);
  std::optional<fs::path> found = find_config_file(input.empty() ? fs::path(".") : fs::path(input));
  if (!found) return &none_;
  // Shown relative to the working directory when it is below it, as inputs usually are.
  std::error_code ec;
  fs::path shown = fs::relative(*found, fs::current_path(ec), ec);
  if (ec || shown.empty() || shown.string().starts_with("..")) shown = *found;
  return load(shown, diagnostics);
}

const config::Config* ConfigFiles::load(const fs::path& path,
                                        std::vector<diagnostics::Diagnostic>& diagnostics) {
  const std::string key = path.string();
  if (auto it = loaded_.find(key); it != loaded_.end()) return it->second ? &*it->second : nullptr;
  std::optional<config::Config>& slot = loaded_[key];
  std::optional<std::string> text = read_file(path);
  std::string why = text ? why_not_text(*text) : "no such file, or not readable";
  if (!why.empty()) {
    diagnostics.push_back(
        diagnostics::Diagnostic{diagnostics::Severity::error,
                                rules::config,
                                diagnostics::Location{key, 0, 0, 0, 0},
                                fmt::format("cannot read config file '{}': {}", key, why),
                                {},
                                {}});
    return nullptr;
  }
  config::ConfigLoad load = config::load_config(key, std::move(*text), known_rules_);
  if (!load.diagnostics.empty()) {
    for (diagnostics::Diagnostic& d : load.diagnostics) diagnostics.push_back(std::move(d));
    return nullptr;
  }
  slot = std::move(load.config);
  return &*slot;
}

}  // namespace schemac::cli
