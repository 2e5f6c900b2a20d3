// The JSON renderer: one array of diagnostic objects, for tools and scripts.
#include <fmt/format.h>

#include "schemac/diagnostics/diagnostic.h"

namespace schemac::schema {
namespace {

std::string quoted(std::string_view text) { return "\"" + json_escape(text) + "\""; }

std::string location_fields(const Location& loc) {
  return fmt::format("\"file\":{},\"line\":{},\"column\":{},\"end\":{{\"line\":{},\"column\":{}}}",
                     quoted(loc.file), loc.line, loc.column, loc.end_line, loc.end_column);
}

}  // namespace

std::string render_json(std::span<const Diagnostic> diagnostics) {
  std::string out = "[";
  bool first = true;
  for (const Diagnostic& d : diagnostics) {
    out += first ? "\n  {" : ",\n  {";
    first = false;
    out += location_fields(d.location);
    out += fmt::format(",\"severity\":{},\"rule\":{},\"message\":{},\"notes\":[",
                       quoted(severity_name(d.severity)), quoted(d.rule), quoted(d.message));
    for (size_t i = 0; i < d.notes.size(); ++i) {
      if (i != 0) out += ',';
      out += "{" + location_fields(d.notes[i].location) +
             fmt::format(",\"message\":{}}}", quoted(d.notes[i].message));
    }
    out += ']';
    if (d.fix) {
      out += ",\"fix\":{" + location_fields(d.fix->location) +
             fmt::format(",\"replacement\":{}}}", quoted(d.fix->replacement));
    }
    out += '}';
  }
  out += first ? "]\n" : "\n]\n";
  return out;
}

}  // namespace schemac::schema
