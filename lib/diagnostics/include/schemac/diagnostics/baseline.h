// Baselines: the findings of one day recorded in a file, so that later runs report only new ones.
// A finding is keyed by its file, rule and message (which names the operator), not by its line,
// so edits elsewhere in the file do not bring recorded findings back.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "schemac/diagnostics/diagnostic.h"

namespace schemac::diagnostics {

struct BaselineEntry {
  std::string file;
  std::string rule;
  std::string message;
  auto operator<=>(const BaselineEntry&) const = default;
};

// A JSON document {"version":1,"findings":[{"file","rule","message"},...]}, sorted.
std::string render_baseline(std::span<const Diagnostic> diagnostics);

// The entries of a baseline document, or nullopt (with `error` set) when it is not one.
std::optional<std::vector<BaselineEntry>> parse_baseline(std::string_view text, std::string& error);

// Removes the diagnostics the baseline records: each entry excuses one diagnostic with its key.
void drop_baselined(std::vector<Diagnostic>& diagnostics, std::span<const BaselineEntry> baseline);

}  // namespace schemac::diagnostics
