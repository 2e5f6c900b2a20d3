// The diagnostics type: locations, source lookup, counting and ordering.
#include "schemac/diagnostics/diagnostic.h"

#include <algorithm>
#include <tuple>

#include <fmt/format.h>

namespace schemac::diagnostics {

namespace {

// Per severity, in enum order: its name (also SARIF's level) and its colour in text output.
struct SeverityInfo {
  std::string_view name;
  std::string_view color;
};
constexpr SeverityInfo kSeverities[] = {
    {"error", "\033[1;31m"}, {"warning", "\033[1;35m"}, {"note", "\033[1;36m"}};

}  // namespace

std::string_view severity_name(Severity severity) {
  return kSeverities[static_cast<size_t>(severity)].name;
}

std::string_view severity_color(Severity severity) {
  return kSeverities[static_cast<size_t>(severity)].color;
}

Location Location::at(std::string file, uint32_t line, uint32_t column, uint32_t length) {
  return Location{std::move(file), line, column, line, column + std::max<uint32_t>(length, 1)};
}

void SourceFiles::add(std::string file, std::string text) {
  File entry;
  entry.line_starts.push_back(0);
  for (uint32_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') entry.line_starts.push_back(i + 1);
  }
  entry.text = std::move(text);
  files_.insert_or_assign(std::move(file), std::move(entry));
}

std::string_view SourceFiles::line(const std::string& file, uint32_t line) const {
  auto it = files_.find(file);
  if (it == files_.end() || line == 0 || line > it->second.line_starts.size()) return {};
  const File& f = it->second;
  uint32_t begin = f.line_starts[line - 1];
  uint32_t end = line < f.line_starts.size() ? f.line_starts[line] : f.text.size();
  std::string_view text = std::string_view(f.text).substr(begin, end - begin);
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.remove_suffix(1);
  return text;
}

DiagnosticCounts count_diagnostics(std::span<const Diagnostic> diagnostics) {
  DiagnosticCounts counts;
  for (const Diagnostic& d : diagnostics) {
    if (d.severity == Severity::error) ++counts.errors;
    if (d.severity == Severity::warning) ++counts.warnings;
  }
  return counts;
}

void sort_diagnostics(std::vector<Diagnostic>& diagnostics) {
  std::stable_sort(diagnostics.begin(), diagnostics.end(),
                   [](const Diagnostic& a, const Diagnostic& b) {
                     return std::tie(a.location.file, a.location.line, a.location.column) <
                            std::tie(b.location.file, b.location.line, b.location.column);
                   });
}

}  // namespace schemac::diagnostics
