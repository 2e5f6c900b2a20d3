// Registration code read outside lint() (engine.h: nearest_config, scan_registration_code,
// check_registration_code, found_schemas_listing): the same config and macros lint() gives it, so
// parse --source and compat see what lint sees.
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "schemac/config/provider.h"
#include "schemac/engine/engine.h"
#include "schemac/schema/printer.h"
#include "schemac/schema_json/schema_json.h"
#include "schemac/sources/lint.h"

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

std::optional<sources::ScannedFile> scan_registration_code(const std::string& path,
                                                           const std::string& text,
                                                           const BuildMacros& build,
                                                           std::string& why) {
  std::optional<sources::Language> language = sources::language_of(path, text);
  if (!language) {
    why = "'" + path +
          "' is not a C++ or Python file (.cpp .cc .cxx .cu .h .hpp .cuh .py, or such content)";
    return std::nullopt;
  }
  return scan_registration_code(path, text, *language, build, why);
}

std::vector<Diagnostic> check_registration_code(std::span<sources::ScannedFile> files) {
  sources::resolve_across_files(files);  // helpers register into Library objects others bind
  std::vector<Diagnostic> out;
  for (const sources::ScannedFile& file : files) {
    for (const sources::FoundSchema& found : file.scan.schemas) {
      for (Diagnostic& d : sources::check_found_schema(file.path, found))
        out.push_back(std::move(d));
    }
    for (Diagnostic& d : sources::code_diagnostics(file.path, file.scan))
      out.push_back(std::move(d));
  }
  return out;
}

std::string found_schemas_listing(std::span<const sources::ScannedFile> files, bool json) {
  std::string out;
  for (const sources::ScannedFile& file : files) {
    for (const sources::FoundSchema& found : file.scan.schemas) {
      schema::ParseResult result = schema::parse_schema(found.text.text());
      if (json) {
        out += schema_json::found_schema_json(file.path, found, result) + "\n";
      } else if (result.ok()) {
        out += fmt::format("{}:{}:{}: {}\n", file.path, found.position.line, found.position.column,
                           schema::print_schema(*result.schema));
      }
    }
  }
  return out;
}

}  // namespace schemac::engine
