// GitHub Actions' workflow commands (render_github.h).
#include "schemac/diagnostics/render_github.h"

#include <fmt/format.h>

namespace schemac::diagnostics {
namespace {

// A workflow command's data: %, CR and LF escaped; in properties also ':' and ','.
std::string escape_annotation(std::string_view text, bool property) {
  std::string out;
  for (char c : text) {
    if (c == '%') out += "%25";
    else if (c == '\r') out += "%0D";
    else if (c == '\n') out += "%0A";
    else if (property && c == ':') out += "%3A";
    else if (property && c == ',') out += "%2C";
    else out += c;
  }
  return out;
}

}  // namespace

std::string render_github(std::span<const Diagnostic> diagnostics) {
  std::string out;
  for (const Diagnostic& d : diagnostics) {
    std::string_view command = d.severity == Severity::error     ? "error"
                               : d.severity == Severity::warning ? "warning"
                                                                 : "notice";
    std::string properties;
    const Location& loc = d.location;
    if (!loc.file.empty()) properties += "file=" + escape_annotation(loc.file, true) + ",";
    if (loc.line != 0) properties += fmt::format("line={},", loc.line);
    if (loc.column != 0) properties += fmt::format("col={},", loc.column);
    if (loc.end_line != 0 && loc.end_line != loc.line)
      properties += fmt::format("endLine={},", loc.end_line);
    if (loc.end_line == loc.line && loc.end_column > loc.column)
      properties += fmt::format("endColumn={},", loc.end_column);
    properties += "title=" + escape_annotation(d.rule, true);
    out += fmt::format("::{} {}::{}\n", command, properties,
                       escape_annotation(d.message + " [" + d.rule + "]", false));
  }
  return out;
}

}  // namespace schemac::diagnostics
