// The SARIF 2.1.0 renderer, in the subset GitHub code scanning reads: one run, the driver with
// its rules (id, short description, default level, helpUri and help when known), one invocation
// (executionSuccessful and the tool's own errors), and results with a rule id, a level, a message
// and a physical location (artifact URI and a 1-based region whose columns count UTF-16 code
// units). Notes become relatedLocations; a fix hint becomes a SARIF fix.
#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "schemac/diagnostics/diagnostic.h"
#include "schemac/diagnostics/fixes.h"
#include "schemac/support/json.h"

namespace schemac::diagnostics {

using support::Json, support::to_json_text;

namespace {

// SARIF's levels are our severity names: error, warning, note.
std::string_view level(Severity severity) { return severity_name(severity); }

// Only the fields SARIF allows: a region needs startLine >= 1; columns are optional.
// A byte column as UTF-16 code units, when the file's text is known.
uint32_t column_of(const SourceFiles* sources, const std::string& file, uint32_t line,
                   uint32_t column) {
  if (sources == nullptr || column == 0) return column;
  return utf16_column(sources->line(file, line), column);
}

Json region(const Location& loc, const SourceFiles* sources) {
  Json out{{"startLine", std::max<uint32_t>(loc.line, 1)}};
  if (loc.column != 0) out["startColumn"] = column_of(sources, loc.file, loc.line, loc.column);
  if (loc.end_line >= loc.line && loc.end_line != 0) {
    out["endLine"] = loc.end_line;
    if (loc.end_column != 0)
      out["endColumn"] = column_of(sources, loc.file, loc.end_line, loc.end_column);
  }
  return out;
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

Json artifact(std::string_view path) { return Json{{"uri", artifact_uri(path)}}; }

Json physical_location(const Location& loc, const SourceFiles* sources) {
  Json out{{"artifactLocation", artifact(loc.file)}};
  if (loc.line != 0) out["region"] = region(loc, sources);
  return out;
}

Json text(std::string_view message) { return Json{{"text", message}}; }

Json rule_object(std::string_view id, std::string_view description, Severity severity,
                 const SarifRun& run) {
  Json out{{"id", id}, {"shortDescription", text(description)}};
  if (std::string uri = run.help_uri ? run.help_uri(id) : ""; !uri.empty()) out["helpUri"] = uri;
  if (std::string help = run.help_text ? run.help_text(id) : ""; !help.empty())
    out["help"] = text(help);
  out["defaultConfiguration"] = Json{{"level", level(severity)}};
  return out;
}

Json result_object(const Diagnostic& d, const SourceFiles* sources) {
  Json out{{"ruleId", d.rule},
           {"level", level(d.severity)},
           {"message", text(d.message)},
           {"locations",
            Json::array({Json{{"physicalLocation", physical_location(d.location, sources)}}})}};
  if (!d.notes.empty()) {
    Json related = Json::array();
    for (size_t i = 0; i < d.notes.size(); ++i) {
      Json note{{"id", i}, {"message", text(d.notes[i].message)}};
      if (!d.notes[i].location.file.empty())
        note["physicalLocation"] = physical_location(d.notes[i].location, sources);
      related.push_back(std::move(note));
    }
    out["relatedLocations"] = std::move(related);
  }
  if (d.fix) {
    Json replacement{{"deletedRegion", region(d.fix->location, sources)},
                     {"insertedContent", text(d.fix->replacement)}};
    Json change{{"artifactLocation", artifact(d.fix->location.file)},
                {"replacements", Json::array({std::move(replacement)})}};
    out["fixes"] =
        Json::array({Json{{"description", text(d.fix->replacement.empty()
                                                   ? std::string("delete the text")
                                                   : "replace with '" + d.fix->replacement + "'")},
                          {"artifactChanges", Json::array({std::move(change)})}}});
  }
  return out;
}

// "\n<indent>{...},\n<indent>{...}": one object per line, for a diff-friendly log.
std::string one_per_line(const std::vector<Json>& items, std::string_view indent) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    out += i == 0 ? "\n" : ",\n";
    out += indent;
    out += to_json_text(items[i]);
  }
  return out;
}

}  // namespace

std::string render_sarif(std::span<const Diagnostic> diagnostics, const ToolInfo& tool,
                         const SarifRun& run) {
  // Every rule a result names must be in the table: add ids the catalogue does not know.
  std::vector<Json> rules;
  std::set<std::string_view> known;
  for (const RuleInfo& rule : tool.rules) {
    rules.push_back(rule_object(rule.id, rule.description, rule.severity, run));
    known.insert(rule.id);
  }
  std::vector<Json> results;
  for (const Diagnostic& d : diagnostics) {
    if (known.insert(d.rule).second) rules.push_back(rule_object(d.rule, d.rule, d.severity, {}));
    results.push_back(result_object(d, run.sources));
  }
  Json driver{{"name", tool.name}, {"version", tool.version}, {"semanticVersion", tool.version}};
  if (!tool.information_uri.empty()) driver["informationUri"] = tool.information_uri;
  std::string driver_members = to_json_text(driver);
  driver_members.pop_back();  // the closing brace: the rules follow, one per line

  std::string out =
      "{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n"
      "  \"version\": \"2.1.0\",\n  \"runs\": [{\n    \"tool\": {\"driver\": ";
  out +=
      driver_members + ",\"rules\":[" + one_per_line(rules, "      ") + "]}},\n    \"results\": [";
  out += results.empty() ? "]" : one_per_line(results, "      ") + "\n    ]";
  Json invocation{{"executionSuccessful", run.execution_successful}};
  if (!run.tool_errors.empty()) {
    Json notifications = Json::array();
    for (const std::string& e : run.tool_errors)
      notifications.push_back(Json{{"level", "error"}, {"message", text(e)}});
    invocation["toolExecutionNotifications"] = std::move(notifications);
  }
  out += ",\n    \"invocations\": [" + to_json_text(invocation) + "]";
  out += ",\n    \"columnKind\": \"utf16CodeUnits\"";
  return out + "\n  }]\n}\n";
}

}  // namespace schemac::diagnostics
