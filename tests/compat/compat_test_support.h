// Helpers shared by the compat tests: a one-line form of a diagnostic, and running compat on
// two texts.
#pragma once

#include <string>
#include <vector>

#include <fmt/format.h>

#include "../common/cli_test_support.h"
#include "schemac/compat/compat.h"

namespace schemac::compat_test {

// "file:line:col: rule: message", notes as " | note file:line:col: message".
inline std::string brief(const diagnostics::Diagnostic& d) {
  std::string out = fmt::format("{}:{}:{}: {}: {}", d.location.file, d.location.line, d.location.column,
                                d.rule, d.message);
  for (const diagnostics::Note& note : d.notes) {
    out += fmt::format(" | note {}:{}:{}: {}", note.location.file, note.location.line,
                       note.location.column, note.message);
  }
  return out;
}

inline std::vector<std::string> briefs(const std::vector<diagnostics::Diagnostic>& diagnostics) {
  std::vector<std::string> out;
  for (const diagnostics::Diagnostic& d : diagnostics) out.push_back(brief(d));
  return out;
}

inline compat::Date test_day() { return compat::Date{2026, 3, 15}; }

// compat of OLD and NEW texts (named old.yaml and new.yaml), no allow-list.
inline compat::CompatReport compat(const std::string& old_text, const std::string& new_text) {
  return compat::check_compat({"old.yaml", old_text}, {"new.yaml", new_text}, std::nullopt, test_day());
}

using test::read_file;
using test::write_file;

}  // namespace schemac::compat_test
