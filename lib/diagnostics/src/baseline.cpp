// Baseline files: writing today's findings, reading them back, and excusing them.
#include "schemac/diagnostics/baseline.h"

#include <algorithm>
#include <map>

#include "schemac/support/json.h"

namespace schemac::diagnostics {

using support::Json;

namespace {

BaselineEntry key_of(const Diagnostic& d) { return {d.location.file, d.rule, d.message}; }

}  // namespace

std::string render_baseline(std::span<const Diagnostic> diagnostics) {
  std::vector<BaselineEntry> entries;
  for (const Diagnostic& d : diagnostics) entries.push_back(key_of(d));
  std::sort(entries.begin(), entries.end());
  std::string out = "{\"version\": 1, \"findings\": [";
  for (size_t i = 0; i < entries.size(); ++i) {
    out += i == 0 ? "\n  " : ",\n  ";
    out += support::to_json_text(Json{
        {"file", entries[i].file}, {"rule", entries[i].rule}, {"message", entries[i].message}});
  }
  return out + (entries.empty() ? "]}\n" : "\n]}\n");
}

std::optional<std::vector<BaselineEntry>> parse_baseline(std::string_view text,
                                                         std::string& error) {
  Json doc = Json::parse(text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object() || !doc.contains("findings") ||
      !doc["findings"].is_array()) {
    error = "not a schemac baseline (a JSON object with a \"findings\" array)";
    return std::nullopt;
  }
  std::vector<BaselineEntry> entries;
  for (const Json& f : doc["findings"]) {
    if (!f.is_object() || !f.contains("file") || !f.contains("rule") || !f.contains("message") ||
        !f["file"].is_string() || !f["rule"].is_string() || !f["message"].is_string()) {
      error = "a finding needs string \"file\", \"rule\" and \"message\" members";
      return std::nullopt;
    }
    entries.push_back({f["file"].get<std::string>(), f["rule"].get<std::string>(),
                       f["message"].get<std::string>()});
  }
  return entries;
}

void drop_baselined(std::vector<Diagnostic>& diagnostics, std::span<const BaselineEntry> baseline) {
  std::map<BaselineEntry, size_t> excuses;
  for (const BaselineEntry& e : baseline) ++excuses[e];
  std::erase_if(diagnostics, [&](const Diagnostic& d) {
    auto it = excuses.find(key_of(d));
    if (it == excuses.end() || it->second == 0) return false;
    --it->second;
    return true;
  });
}

}  // namespace schemac::diagnostics
