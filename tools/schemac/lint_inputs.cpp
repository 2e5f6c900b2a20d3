#include "lint_inputs.h"

#include <filesystem>

#include "input.h"
#include "schemac/engine/engine.h"

namespace schemac::tool {

config::ConfigProvider config_provider(const std::string& forced) {
  return config::ConfigProvider(
      forced, engine::all_rules(), [](const std::filesystem::path& path, std::string& why) {
        std::optional<std::string> text = cli::read_file(path);
        why = text ? cli::why_not_text(*text) : "no such file, or not readable";
        return why.empty() ? text : std::nullopt;
      });
}

}  // namespace schemac::tool
