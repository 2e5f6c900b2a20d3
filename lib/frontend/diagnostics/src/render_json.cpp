// The JSON renderer: one array of diagnostic objects, for tools and scripts. Each diagnostic is
// one line: "[\n  {...},\n  {...}\n]\n", or "[]\n" when there is none.
#include "schemac/diagnostics/diagnostic.h"
#include "schemac/support/json.h"

namespace schemac::diagnostics {

using support::Json;

namespace {

// {"file","line","column","end":{"line","column"}} and then the caller's members.
Json located(const Location& loc) {
  return Json{{"file", loc.file},
              {"line", loc.line},
              {"column", loc.column},
              {"end", Json{{"line", loc.end_line}, {"column", loc.end_column}}}};
}

Json diagnostic_json(const Diagnostic& d) {
  Json out = located(d.location);
  out["severity"] = severity_name(d.severity);
  out["rule"] = d.rule;
  out["message"] = d.message;
  Json notes = Json::array();
  for (const Note& note : d.notes) {
    Json n = located(note.location);
    n["message"] = note.message;
    notes.push_back(std::move(n));
  }
  out["notes"] = std::move(notes);
  if (d.fix) {
    Json fix = located(d.fix->location);
    fix["replacement"] = d.fix->replacement;
    out["fix"] = std::move(fix);
  }
  return out;
}

}  // namespace

std::string render_json(std::span<const Diagnostic> diagnostics) {
  if (diagnostics.empty()) return "[]\n";
  std::string out = "[";
  for (const Diagnostic& d : diagnostics) {
    out += out.size() == 1 ? "\n  " : ",\n  ";
    out += support::to_json_text(diagnostic_json(d));
  }
  return out + "\n]\n";
}

}  // namespace schemac::diagnostics
