// Tabs in YAML indentation, reported before libyaml reads the file (yaml_tabs.h).
#include "yaml_tabs.h"

#include <fmt/format.h>

#include "schemac/rules/rules.h"

namespace schemac::yaml {

using diagnostics::Diagnostic, diagnostics::Location, diagnostics::Severity;

void report_tab_indentation(const YamlDocument& doc, std::vector<Diagnostic>& diagnostics) {
  for (size_t i = 0; i < doc.line_starts.size(); ++i) {
    uint32_t begin = doc.line_starts[i];
    uint32_t pos = begin;
    while (pos < doc.text.size() && (doc.text[pos] == ' ' || doc.text[pos] == '\t')) ++pos;
    if (pos >= doc.text.size() || doc.text[pos] == '\n' || doc.text[pos] == '\r' ||
        doc.text[pos] == '#')
      continue;
    std::string_view indent(doc.text.data() + begin, pos - begin);
    size_t tab = indent.find('\t');
    if (tab == std::string_view::npos) continue;
    diagnostics.push_back(Diagnostic{
        Severity::error,
        rules::yaml_tab,
        Location::at(doc.file, static_cast<uint32_t>(i + 1), static_cast<uint32_t>(tab + 1)),
        "tab character in indentation; YAML indents with spaces only",
        {},
        {}});
  }
}

}  // namespace schemac::yaml
