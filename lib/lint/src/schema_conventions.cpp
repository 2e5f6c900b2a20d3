#include "schemac/lint/schema_conventions.h"

#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "schemac/lint/lint_rules.h"

namespace schemac::schema {
namespace {

constexpr auto kRules = std::to_array<std::string_view>(
    {"out-annotation", "out-position", "out-name", "out-return", "inplace-self", "mutable-return",
     "python-keyword-argument"});

constexpr std::string_view kPrefix = "- func: \"";

// The schema as a double-quoted YAML scalar on one line, and for each column of that line the
// schema offset its character came from.
struct QuotedSchema {
  std::string yaml;
  std::vector<uint32_t> offset_of_column;  // index: 1-based column
};

QuotedSchema quote(std::string_view schema) {
  QuotedSchema out;
  out.yaml = kPrefix;
  out.offset_of_column.assign(kPrefix.size() + 1, 0);
  for (size_t i = 0; i < schema.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(schema[i]);
    std::string piece;
    if (c == '"' || c == '\\') {
      piece = {'\\', static_cast<char>(c)};
    } else if (c < 0x20 || c == 0x7f) {
      piece = fmt::format("\\x{:02x}", c);
    } else {
      piece = std::string(1, static_cast<char>(c));
    }
    out.yaml += piece;
    out.offset_of_column.insert(out.offset_of_column.end(), piece.size(), static_cast<uint32_t>(i));
  }
  out.yaml += "\"\n";
  out.offset_of_column.push_back(static_cast<uint32_t>(schema.size()));
  return out;
}

uint32_t offset_at(const QuotedSchema& quoted, const Location& location) {
  if (location.line != 1 || location.column >= quoted.offset_of_column.size()) return 0;
  return quoted.offset_of_column[location.column];
}

}  // namespace

std::vector<SchemaConventionFinding> check_schema_conventions(std::string_view schema) {
  QuotedSchema quoted = quote(schema);
  LintOptions options;
  options.torchgen_codegen = false;
  std::vector<SchemaConventionFinding> out;
  for (const Diagnostic& d : lint_native_functions("<schema>", quoted.yaml, options)) {
    if (std::find(kRules.begin(), kRules.end(), d.rule) == kRules.end()) continue;
    SchemaConventionFinding finding;
    finding.rule = d.rule;
    finding.offset = offset_at(quoted, d.location);
    uint32_t end = d.location.end_column > d.location.column ? offset_at(quoted, Location::at(
                                                                   "", 1, d.location.end_column))
                                                             : finding.offset;
    finding.length = end > finding.offset ? end - finding.offset : 1;
    finding.message = d.message;
    for (const Note& note : d.notes) {
      finding.notes.push_back({offset_at(quoted, note.location), note.message});
    }
    out.push_back(std::move(finding));
  }
  return out;
}

}  // namespace schemac::schema
