// The baseline file (baseline_file.h): written once, then read.
#include "schemac/engine/baseline_file.h"

#include <filesystem>
#include <fstream>

#include <fmt/format.h>

namespace schemac::engine {

BaselineFile use_baseline(
    const std::string& path, std::span<const diagnostics::Diagnostic> today,
    const Configured& configured, std::span<const std::string> texts,
    const std::function<std::optional<std::string>(const std::string&)>& read) {
  BaselineFile out;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    // A finding's key holds the text it points at, found by its file's path.
    auto text_of = [&](const std::string& file) -> std::string_view {
      for (size_t i = 0; i < configured.documents.size(); ++i) {
        if (configured.documents[i].path == file) return texts[i];
      }
      return {};
    };
    std::ofstream file(path, std::ios::binary);
    file << diagnostics::render_baseline(today, text_of);
    if (!file.flush()) {
      out.problem = fmt::format("cannot write baseline '{}'", path);
      return out;
    }
    out.written = true;
    out.recorded = today.size();
    return out;
  }
  std::optional<std::string> text = read(path);
  if (!text) return out;
  std::string why;
  out.entries = diagnostics::parse_baseline(*text, why);
  if (!out.entries) out.problem = fmt::format("baseline '{}' is not usable: {}", path, why);
  return out;
}

}  // namespace schemac::engine
