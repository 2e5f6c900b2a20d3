// Finding each path's .schemac.yaml (provider.h).
#include "schemac/config/provider.h"

#include <fmt/format.h>

#include "schemac/rules/rules.h"
#include "schemac/support/files.h"

namespace schemac::config {

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

namespace {

std::optional<std::string> read_bytes(const fs::path& path, std::string& why) {
  std::optional<std::string> text = support::read_file(path);
  if (!text) why = "no such file, or not readable";
  return text;
}

}  // namespace

ConfigProvider::ConfigProvider(std::string forced, ReadText read)
    : forced_(std::move(forced)), read_(read ? std::move(read) : ReadText(read_bytes)) {}

const Config* ConfigProvider::for_input(const std::string& input,
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

const Config* ConfigProvider::load(const fs::path& path,
                                   std::vector<diagnostics::Diagnostic>& diagnostics) {
  const std::string key = path.string();
  if (auto it = loaded_.find(key); it != loaded_.end()) return it->second ? &*it->second : nullptr;
  std::optional<Config>& slot = loaded_[key];
  std::string why;
  std::optional<std::string> text = read_(path, why);
  if (!text) {
    diagnostics.push_back(
        diagnostics::Diagnostic{diagnostics::Severity::error,
                                rules::config,
                                diagnostics::Location{key, 0, 0, 0, 0},
                                fmt::format("cannot read config file '{}': {}", key, why),
                                {},
                                {}});
    return nullptr;
  }
  ConfigLoad load = load_config(key, std::move(*text));
  if (!load.diagnostics.empty()) {
    for (diagnostics::Diagnostic& d : load.diagnostics) diagnostics.push_back(std::move(d));
    return nullptr;
  }
  slot = std::move(load.config);
  return &*slot;
}

}  // namespace schemac::config
