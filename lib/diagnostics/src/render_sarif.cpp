// The SARIF 2.1.0 renderer, in the subset GitHub code scanning reads: one run, the driver with
// its rules (id, short description, default level), and results with a rule id, a level, a
// message and a physical location (artifact URI and a 1-based region). Notes become
// relatedLocations; a fix hint becomes a SARIF fix.
#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "schemac/diagnostics/diagnostic.h"

namespace schemac::schema {
namespace {

std::string quoted(std::string_view text) { return "\"" + json_escape(text) + "\""; }

std::string_view level(Severity severity) {
  switch (severity) {
    case Severity::error: return "error";
    case Severity::warning: return "warning";
    case Severity::note: return "note";
  }
  return "error";
}

// Only the fields SARIF allows: a region needs startLine >= 1; columns are optional.
std::string region(const Location& loc) {
  std::string out = fmt::format("{{\"startLine\":{}", std::max<uint32_t>(loc.line, 1));
  if (loc.column != 0) out += fmt::format(",\"startColumn\":{}", loc.column);
  if (loc.end_line >= loc.line && loc.end_line != 0) {
    out += fmt::format(",\"endLine\":{}", loc.end_line);
    if (loc.end_column != 0) out += fmt::format(",\"endColumn\":{}", loc.end_column);
  }
  return out + "}";
}

// A relative path stays relative (code scanning resolves it against the checkout); an absolute
// one becomes a file:// URI. Characters URIs cannot hold are percent-encoded.
std::string artifact_uri(std::string_view path) {
  std::string out = path.starts_with('/') ? "file://" : "";
  for (char c : path) {
    auto u = static_cast<unsigned char>(c);
    if (u <= 0x20 || u >= 0x7f || c == '%' || c == '#' || c == '?') {
      out += fmt::format("%{:02X}", static_cast<unsigned>(u));
    } else {
      out += c;
    }
  }
  return out;
}

std::string physical_location(const Location& loc) {
  std::string out =
      fmt::format("{{\"artifactLocation\":{{\"uri\":{}}}", quoted(artifact_uri(loc.file)));
  if (loc.line != 0) out += ",\"region\":" + region(loc);
  return out + "}";
}

std::string rule_object(std::string_view id, std::string_view description, Severity severity) {
  return fmt::format(
      "{{\"id\":{},\"shortDescription\":{{\"text\":{}}},"
      "\"defaultConfiguration\":{{\"level\":{}}}}}",
      quoted(id), quoted(description), quoted(level(severity)));
}

}  // namespace

std::string render_sarif(std::span<const Diagnostic> diagnostics, const ToolInfo& tool) {
  std::string out =
      "{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n"
      "  \"version\": \"2.1.0\",\n  \"runs\": [{\n    \"tool\": {\"driver\": {";
  out += fmt::format("\"name\":{},\"version\":{},\"semanticVersion\":{}", quoted(tool.name),
                     quoted(tool.version), quoted(tool.version));
  if (!tool.information_uri.empty()) {
    out += fmt::format(",\"informationUri\":{}", quoted(tool.information_uri));
  }
  out += ",\"rules\":[";
  // Every rule a result names must be in the table: add ids the catalogue does not know.
  std::set<std::string_view> known;
  bool first = true;
  for (const RuleInfo& rule : tool.rules) {
    out += first ? "\n      " : ",\n      ";
    first = false;
    out += rule_object(rule.id, rule.description, rule.severity);
    known.insert(rule.id);
  }
  for (const Diagnostic& d : diagnostics) {
    if (known.insert(d.rule).second) {
      out += first ? "\n      " : ",\n      ";
      first = false;
      out += rule_object(d.rule, d.rule, d.severity);
    }
  }
  out += "]}},\n    \"results\": [";
  first = true;
  for (const Diagnostic& d : diagnostics) {
    out += first ? "\n      {" : ",\n      {";
    first = false;
    out += fmt::format("\"ruleId\":{},\"level\":{},\"message\":{{\"text\":{}}}", quoted(d.rule),
                       quoted(level(d.severity)), quoted(d.message));
    out += ",\"locations\":[{\"physicalLocation\":" + physical_location(d.location) + "}]";
    if (!d.notes.empty()) {
      out += ",\"relatedLocations\":[";
      for (size_t i = 0; i < d.notes.size(); ++i) {
        if (i != 0) out += ',';
        out += fmt::format("{{\"id\":{},\"message\":{{\"text\":{}}}", i, quoted(d.notes[i].message));
        if (!d.notes[i].location.file.empty()) {
          out += ",\"physicalLocation\":" + physical_location(d.notes[i].location);
        }
        out += '}';
      }
      out += ']';
    }
    if (d.fix) {
      out += fmt::format(
          ",\"fixes\":[{{\"description\":{{\"text\":{}}},\"artifactChanges\":[{{"
          "\"artifactLocation\":{{\"uri\":{}}},\"replacements\":[{{\"deletedRegion\":{},"
          "\"insertedContent\":{{\"text\":{}}}}}]}}]}}]",
          quoted("replace with '" + d.fix->replacement + "'"), quoted(artifact_uri(d.fix->location.file)),
          region(d.fix->location), quoted(d.fix->replacement));
    }
    out += '}';
  }
  out += first ? "]\n  }]\n}\n" : "\n    ]\n  }]\n}\n";
  return out;
}

}  // namespace schemac::schema
