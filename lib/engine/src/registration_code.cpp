// Registration code read outside lint() (engine.h: nearest_config, scan_registration_code): the
// same config and macros lint() gives it, so parse --source and compat see what lint sees.
#include <fstream>
#include <sstream>

#include "schemac/config/provider.h"
#include "schemac/engine/engine.h"

namespace schemac::engine {

config::Config nearest_config(const std::string& input) {
  std::optional<std::filesystem::path> file = config::find_config_file(input);
  if (!file) return {};
  std::ifstream in(*file, std::ios::binary);
  std::ostringstream text;
  if (!in) return {};
  text << in.rdbuf();
  return config::load_config(file->string(), text.str(), config_rules()).config;
}

std::optional<sources::ScannedFile> scan_registration_code(const std::string& path,
                                                           const std::string& text,
                                                           sources::Language language,
                                                           const BuildMacros& build,
                                                           std::string& why) {
  const config::Config config = nearest_config(path);
  std::optional<tokens::MacroTable> macros = macros_for(config, build, why);
  if (!macros) return std::nullopt;
  sources::ScanOptions options = scan_options_from(config);
  options.macros = &*macros;
  return sources::ScannedFile{path, sources::scan_source(text, language, options)};
}

}  // namespace schemac::engine
