// The diagnostics type: locations, source lookup, counting and ordering.
#include "schemac/schema/diagnostic.h"

#include <algorithm>
#include <tuple>

#include <fmt/format.h>

namespace schemac::schema {

std::string_view severity_name(Severity severity) {
  switch (severity) {
    case Severity::error: return "error";
    case Severity::warning: return "warning";
    case Severity::note: return "note";
  }
  return "error";
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

std::string json_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  for (char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += fmt::format("\\u{:04x}", static_cast<unsigned>(static_cast<unsigned char>(c)));
        } else {
          out += c;
        }
    }
  }
  return out;
}

}  // namespace schemac::schema
