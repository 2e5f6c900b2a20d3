// The baseline file (baseline_file.h): written once, then read; its files named relative to it.
#include "schemac/engine/baseline_file.h"

#include <filesystem>
#include <fstream>
#include <map>

#include <fmt/format.h>

namespace schemac::engine {
namespace {

namespace fs = std::filesystem;

std::string absolute_path(const fs::path& path) {
  std::error_code ec;
  return fs::absolute(path, ec).lexically_normal().generic_string();
}

// Each configured document's text, by its absolute path.
std::map<std::string, std::string_view> texts_by_absolute_path(const Configured& configured,
                                                               std::span<const std::string> texts) {
  std::map<std::string, std::string_view> out;
  for (size_t i = 0; i < configured.documents.size(); ++i)
    out.emplace(absolute_path(configured.documents[i].path), texts[i]);
  return out;
}

}  // namespace

BaselineFile use_baseline(
    const std::string& path, std::span<const diagnostics::Diagnostic> today,
    const Configured& configured, std::span<const std::string> texts,
    const std::function<std::optional<std::string>(const std::string&)>& read) {
  BaselineFile out;
  std::error_code ec;
  const fs::path folder = fs::path(absolute_path(path)).parent_path();
  const std::map<std::string, std::string_view> by_path = texts_by_absolute_path(configured, texts);
  if (!fs::exists(path, ec)) {
    // Each finding named relative to the baseline's folder; its key holds the text it points at.
    std::vector<diagnostics::Diagnostic> recorded(today.begin(), today.end());
    std::map<std::string, std::string_view> by_recorded_name;
    for (diagnostics::Diagnostic& d : recorded) {
      if (d.location.file.empty()) continue;
      const std::string absolute = absolute_path(d.location.file);
      d.location.file = fs::path(absolute).lexically_relative(folder).generic_string();
      if (auto it = by_path.find(absolute); it != by_path.end())
        by_recorded_name[d.location.file] = it->second;
    }
    auto text_of = [&](const std::string& file) -> std::string_view {
      auto it = by_recorded_name.find(file);
      return it == by_recorded_name.end() ? std::string_view() : it->second;
    };
    std::ofstream file(path, std::ios::binary);
    file << diagnostics::render_baseline(recorded, text_of);
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
  if (!out.entries) {
    out.problem = fmt::format("baseline '{}' is not usable: {}", path, why);
    return out;
  }
  for (diagnostics::BaselineEntry& entry : *out.entries) {
    if (!entry.file.empty()) entry.file = absolute_path(folder / entry.file);
  }
  return out;
}

void drop_recorded(std::vector<diagnostics::Diagnostic>& findings,
                   std::span<const diagnostics::BaselineEntry> baseline,
                   const Configured& configured, std::span<const std::string> texts) {
  const std::map<std::string, std::string_view> by_path = texts_by_absolute_path(configured, texts);
  std::map<std::string, std::string> shown;  // absolute path -> the name the finding had
  for (diagnostics::Diagnostic& d : findings) {
    if (d.location.file.empty()) continue;
    std::string absolute = absolute_path(d.location.file);
    shown.emplace(absolute, d.location.file);
    d.location.file = std::move(absolute);
  }
  diagnostics::drop_baselined(findings, baseline, [&](const std::string& file) {
    auto it = by_path.find(file);
    return it == by_path.end() ? std::string_view() : it->second;
  });
  for (diagnostics::Diagnostic& d : findings) {
    if (auto it = shown.find(d.location.file); it != shown.end()) d.location.file = it->second;
  }
}

}  // namespace schemac::engine
