// The diagnostics type: locations, source lookup, counting and ordering.
#include "schemac/diagnostics/diagnostic.h"

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

namespace {

// The length of the valid UTF-8 sequence starting at text[i], or 0 when it is not valid.
size_t utf8_sequence(std::string_view text, size_t i) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  unsigned char c = byte(i);
  size_t n = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c <= 0xdf ? 2 : 0;
  if (n == 0 || i + n > text.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xc0) != 0x80) return 0;
  }
  if (n == 3 && c == 0xe0 && byte(i + 1) < 0xa0) return 0;   // overlong
  if (n == 3 && c == 0xed && byte(i + 1) >= 0xa0) return 0;  // surrogates
  if (n == 4 && c == 0xf0 && byte(i + 1) < 0x90) return 0;   // overlong
  if (n == 4 && c == 0xf4 && byte(i + 1) >= 0x90) return 0;  // above U+10FFFF
  return n;
}

}  // namespace

// Bytes that are not valid UTF-8 become U+FFFD, so the output is always valid JSON.
std::string json_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  for (size_t i = 0; i < text.size();) {
    char c = text[i];
    auto u = static_cast<unsigned char>(c);
    if (u >= 0x80) {
      size_t n = utf8_sequence(text, i);
      if (n == 0) {
        out += "\\ufffd";
        ++i;
      } else {
        out.append(text.substr(i, n));
        i += n;
      }
      continue;
    }
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (u < 0x20 || u == 0x7f) {
          out += fmt::format("\\u{:04x}", static_cast<unsigned>(u));
        } else {
          out += c;
        }
    }
    ++i;
  }
  return out;
}

}  // namespace schemac::schema
